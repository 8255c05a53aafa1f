/**
 * A free TCP port on the loopback interface, for servers started as child processes (redis-server
 * in tests/queue/ and tools/bench/): the operating system picks it for a moment's listener, which is
 * then closed.
 */
import { createServer } from 'node:net';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
