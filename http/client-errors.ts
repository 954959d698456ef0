// Requests that Node's HTTP parser refuses (headers over its limit, a bad Content-Length, bad
// chunking, a line that is not HTTP) never reach Koa: Node answers them itself with a bare status
// line and no body. Here they get the same problem+json as every other error.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { randomToken } from '../storage/ids.ts';
import { Problem } from '../machines/problems.ts';
import { errorResponse } from './errors.ts';

// The statuses Node itself gives these errors; anything else the parser refuses is a 400.
const STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const DETAIL: Record<number, string> = {
  431: 'The request headers are larger than the server accepts.',
  408: 'The request was not received in time.',
  400: 'The request is not well-formed HTTP',
};

export function answerClientErrors(server: http.Server, problemsBase: string): void {
  server.on('clientError', (err: Error & { code?: string; reason?: string }, socket: Duplex & { bytesWritten?: number }) => {
    // As Node does: answer only when nothing has been written on this socket yet.
    if (err.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const status = STATUS[err.code ?? ''] ?? 400;
    const detail = status === 400 ? `${DETAIL[400]}${err.reason ? `: ${err.reason}` : ''}.` : DETAIL[status]!;
    const res = errorResponse(new Problem('bad_request', { status, detail }), `req_${randomToken(20)}`, problemsBase);
    const body = JSON.stringify(res.body);
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        `Content-Type: ${res.contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
