// smtp-server holds every greeting back a fixed 100 ms (init() in its smtp-connection.js) to catch
// clients that talk first; a sender delivering one mail a connection then cannot pass ten mails a
// second a connection, whatever the machine. This server greets as soon as a connection is
// accepted. A pause, when one is wanted (SMTP_EARLY_TALKER_DELAY_MS), is taken in onConnect, where a
// command that comes before the greeting is still refused with "421 You talk too soon".
import type net from 'node:net';
import { SMTPServer } from 'smtp-server';

type Connection = { needsUpgrade: boolean; connectionReady(): void };

declare module 'smtp-server' {
  interface SMTPServer {
    /** Starts the session on an accepted socket (smtp-server's own, not in its type declarations). */
    connect(socket: net.Socket, socketOptions: unknown): void;
  }
}

export class PromptGreetingServer extends SMTPServer {
  /** Called by SMTPServer for each accepted socket; its init() has armed the 100 ms timer when it returns. */
  override connect(socket: net.Socket, socketOptions: unknown): void {
    super.connect(socket, socketOptions);
    let connection: Connection | undefined;
    for (connection of this.connections as Set<Connection>); // the newest
    // Implicit TLS greets after its handshake, from the timer as before (not used by this service).
    if (!connection || connection.needsUpgrade) return;
    const ready = Object.getPrototypeOf(connection).connectionReady as () => void;
    // The armed timer now finds nothing to do; the connection is made ready here instead.
    connection.connectionReady = () => {};
    ready.call(connection);
  }
}
