import { launch } from "./launch";

await launch("start", process.argv.slice(2));
