/**
 * A real IMAP server for tests: Debian's dovecot (`dovecot-imapd`), started as its own process with a minimal
 * configuration in a temp folder — one passwd-file user, a Maildir, plain IMAP and IMAPS (a self-signed certificate)
 * on random 127.0.0.1 ports, no system service — and stopped after. `.ci/run` installs the package.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { ImapFlow } from "imapflow";
import { freePort } from "./free-port.js";

/** The dovecot binary, or null when the package is not installed. */
export const DOVECOT = ["/usr/sbin/dovecot", "/usr/bin/dovecot"].find((p) => existsSync(p)) ?? null;
const DOVEADM = ["/usr/bin/doveadm", "/usr/sbin/doveadm"].find((p) => existsSync(p)) ?? "doveadm";

export interface Dovecot {
  host: "127.0.0.1";
  /** Plain IMAP (STARTTLS offered, with the same certificate). */
  port: number;
  /** IMAPS with a self-signed certificate for `localhost`. */
  tlsPort: number;
  /** The certificate's PEM (a client that trusts it connects to `tlsPort`). */
  cert: string;
  user: string;
  password: string;
  /** APPENDs a raw message to a folder of the user (INBOX by default), as a mail client would. */
  append(raw: string | Buffer, options?: { flags?: string[]; mailbox?: string }): Promise<number>;
  /** The flags of every message of INBOX by UID (what a person's mail program shows). */
  flags(): Promise<Map<number, string[]>>;
  /** Gives a folder a new UIDVALIDITY (what a server does when it rebuilds a mailbox). */
  setUidValidity(value: number, mailbox?: string): void;
  stop(): Promise<void>;
}

function waitForGreeting(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, "127.0.0.1");
      socket.once("data", (chunk) => {
        socket.destroy();
        if (chunk.toString().startsWith("* OK")) resolve();
        else retry();
      });
      socket.once("error", () => retry());
    };
    const retry = () => (Date.now() > until ? reject(new Error(`dovecot did not greet on ${port}`)) : setTimeout(attempt, 50));
    attempt();
  });
}

export async function startDovecot(): Promise<Dovecot> {
  if (!DOVECOT) throw new Error("dovecot is not installed (apt-get install -y dovecot-imapd)");
  const dir = await mkdtemp(join(tmpdir(), "timbre-dovecot-"));
  await chmod(dir, 0o755); // login processes run as another user when started as root
  const [port, tlsPort] = [await freePort(), await freePort()];
  const user = "facturas";
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const home = join(dir, "home");
  await mkdir(home);
  await mkdir(join(dir, "run"));
  const root = userInfo().uid === 0;
  // As root, dovecot runs its helpers as the package's users; otherwise everything runs as the caller.
  const me = userInfo().username;
  const mailOwner = root ? "dovecot" : me;
  if (root) {
    const id = (flag: string) => Number(spawnSync("id", [flag, "dovecot"]).stdout.toString().trim());
    await chown(home, id("-u"), id("-g"));
  }
  const key = join(dir, "key.pem");
  const certPath = join(dir, "cert.pem");
  const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certPath, "-days", "2"]);
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  await writeFile(join(dir, "passwd"), `${user}:{PLAIN}${password}::::::\n`);
  const config = join(dir, "dovecot.conf");
  await writeFile(
    config,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = timbre-test-${port}
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <${certPath}
ssl_key = <${key}
disable_plaintext_auth = no
auth_failure_delay = 0
auth_mechanisms = plain login
default_internal_user = ${root ? "dovecot" : me}
default_internal_group = ${root ? "dovecot" : me}
default_login_user = ${root ? "dovenull" : me}
first_valid_uid = 1
mail_location = maildir:${home}/%u/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailOwner} gid=${mailOwner} home=${home}/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort}
    ssl = yes
  }
  chroot =
}
service anvil {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ["-F", "-c", config], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  try {
    await waitForGreeting(port, 10_000);
  } catch (error) {
    child.kill("SIGKILL");
    const log = await readFile(join(dir, "dovecot.log"), "utf8").catch(() => "");
    throw new Error(`${(error as Error).message}: ${stderr} ${log}`);
  }
  const cert = await readFile(certPath, "utf8");
  const client = () => new ImapFlow({ host: "127.0.0.1", port, secure: false, doSTARTTLS: false, auth: { user, pass: password }, logger: false, disableAutoIdle: true });
  return {
    host: "127.0.0.1",
    port,
    tlsPort,
    cert,
    user,
    password,
    async append(raw, options = {}) {
      const c = client();
      await c.connect();
      try {
        const mailbox = options.mailbox ?? "INBOX";
        if (mailbox !== "INBOX") await c.mailboxCreate(mailbox).catch(() => undefined);
        const appended = await c.append(mailbox, raw, options.flags ?? []);
        return appended ? Number(appended.uid ?? 0) : 0;
      } finally {
        await c.logout().catch(() => undefined);
      }
    },
    async flags() {
      const c = client();
      await c.connect();
      try {
        await c.mailboxOpen("INBOX", { readOnly: true });
        const all = await c.fetchAll("1:*", { uid: true, flags: true }, { uid: true });
        // \\Recent is session state (it stays while only EXAMINE looked), not something a person set.
        return new Map(all.map((m) => [m.uid, [...(m.flags ?? [])].filter((f) => f !== "\\Recent").sort()]));
      } finally {
        await c.logout().catch(() => undefined);
      }
    },
    setUidValidity(value, mailbox = "INBOX") {
      const doveadm = spawnSync(DOVEADM, ["-c", config, "mailbox", "update", "-u", user, "--uid-validity", String(value), mailbox]);
      if (doveadm.status !== 0) throw new Error(`doveadm failed: ${doveadm.stderr.toString()}`);
    },
    async stop() {
      const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    },
  };
}
