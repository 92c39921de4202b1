import { launch } from "./launch";

await launch("dev", process.argv.slice(2));
