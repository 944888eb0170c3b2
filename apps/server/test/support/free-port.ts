/** A TCP port free on loopback now (for servers a test starts itself, such as the SMTP receiver). */
import { createServer } from "node:net";

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
