// Prisma's generate step asks for the native schema engine only to skip it: pointing the variable
// at any existing file avoids a download these machines cannot make (see ../shared/toolchain.md).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
execFileSync(process.execPath, [fileURLToPath(import.meta.resolve("prisma/build/index.js")), "generate"], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? fileURLToPath(new URL("../package.json", import.meta.url)),
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  },
});
