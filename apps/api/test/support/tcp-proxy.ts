import net, { type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/**
 * A real TCP proxy in front of the database, so a test can take the database away
 * (refuse: connections are cut; blackhole: connections stay open but nothing flows)
 * and bring it back, without touching the shared server.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let mode: ProxyMode = 'forward';
  const pairs = new Set<[Socket, Socket | null]>();

  const server = net.createServer((client) => {
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    const upstream = mode === 'forward' ? net.connect(target) : null;
    const pair: [Socket, Socket | null] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream?.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    if (upstream) {
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    setMode(next: ProxyMode) {
      mode = next;
      for (const [client, upstream] of pairs) {
        if (next === 'refuse') {
          client.destroy();
          upstream?.destroy();
        } else if (next === 'blackhole' && upstream) {
          client.unpipe(upstream);
          upstream.unpipe(client);
        }
      }
      if (next === 'refuse') pairs.clear();
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
