import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of the test's PostgreSQL server: `down()` refuses new connections and cuts the
 * open ones (the database stopped or restarted, as the worker sees it), `up()` serves again on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }, options: { up?: boolean } = {}) {
  const sockets = new Set<net.Socket>();
  let serving = options.up ?? true;
  const server = net.createServer((client) => {
    if (!serving) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    up: () => {
      serving = true;
    },
    down: () => {
      serving = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
