// The guard every test service passes at stop: it must see what a service leaves running.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { assertNothingLeft, owned } from '../../testkit/leftovers.ts';

test('a timer started by a service and never cleared is reported with where it was created', async () => {
  const owner = { name: 'a leaky service' };
  let timer: NodeJS.Timeout | undefined;
  await owned(owner, async () => {
    await new Promise((r) => setImmediate(r));
    timer = setInterval(() => {}, 60_000);
  });
  await assert.rejects(assertNothingLeft(owner, 100), (err: Error) => {
    assert.match(err.message, /a leaky service left 1 timer\(s\) or socket\(s\) behind/);
    assert.match(err.message, /interval of 60000 ms/);
    assert.match(err.message, /leftovers\.test\.ts/);
    return true;
  });
  clearInterval(timer);
  await assertNothingLeft(owner);
});

test('timers created outside the service are not its own', async () => {
  const owner = { name: 'a quiet service' };
  await owned(owner, async () => {});
  const timer = setInterval(() => {}, 60_000);
  try {
    await assertNothingLeft(owner, 100);
  } finally {
    clearInterval(timer);
  }
});
