import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

const DOVECOT = "/usr/sbin/dovecot";

/** Whether Debian's dovecot-imapd is installed here (tests that need a real IMAP server skip otherwise). */
export const dovecotAvailable = () => spawnSync(DOVECOT, ["--version"]).status === 0;

async function waitForPort(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`dovecot did not listen on ${port}`);
}

/** `home`: where each user's maildir is (`<home>/<user>/Maildir`), for writing mail straight into it. */
export type Dovecot = { host: string; port: number; home: string; stop: () => Promise<void> };

export type DovecotOptions = {
  /**
   * Also sign users in with OAuth 2.0 access tokens (XOAUTH2, as Gmail and Exchange Online do),
   * checked by dovecot's oauth2 passdb against this RFC 7662 introspection endpoint (credentials
   * in the URL); the token's `sub` must be the user. The passwords still work (tests deliver with them).
   */
  oauth2IntrospectionUrl?: string;
};

/** dovecot's oauth2 passdb (2.3): POSTs `token=…` to the introspection URL and takes `active` and `sub`. */
function oauth2Passdb(dir: string, introspectionUrl: string): string {
  writeFileSync(
    path.join(dir, "dovecot-oauth2.conf.ext"),
    `introspection_mode = post
introspection_url = ${introspectionUrl}
force_introspection = yes
username_attribute = sub
active_attribute = active
active_value = true
`,
  );
  return `passdb {
  driver = oauth2
  mechanisms = xoauth2
  args = ${dir}/dovecot-oauth2.conf.ext
}
`;
}

/**
 * A real IMAP server (Debian's dovecot) in the foreground on 127.0.0.1, plain text, with maildirs
 * under a temporary directory, for the given users (address → password).
 */
export async function startDovecot(users: Record<string, string>, options: DovecotOptions = {}): Promise<Dovecot> {
  const dir = mkdtempSync(path.join(tmpdir(), "dovecot-"));
  chmodSync(dir, 0o755);
  for (const sub of ["run", "state"]) mkdirSync(path.join(dir, sub));
  const home = path.join(dir, "home");
  mkdirSync(home);
  // Mail is kept as "nobody"; the maildirs are created by that user on first use.
  chmodSync(home, 0o1777);
  writeFileSync(
    path.join(dir, "passwd"),
    Object.entries(users)
      .map(([user, password]) => `${user}:{PLAIN}${password}\n`)
      .join(""),
  );
  const port = await freePort();
  const config = path.join(dir, "dovecot.conf");
  writeFileSync(
    config,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${options.oauth2IntrospectionUrl ? " xoauth2" : ""}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd${options.oauth2IntrospectionUrl ? "\n  mechanisms = plain login" : ""}
}
${options.oauth2IntrospectionUrl ? oauth2Passdb(dir, options.oauth2IntrospectionUrl) : ""}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${home}/%u
}
mail_location = maildir:~/Maildir
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ["-F", "-c", config], { stdio: "ignore" });
  await waitForPort(port, Date.now() + 10_000);
  return {
    host: "127.0.0.1",
    port,
    home,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
