import { unknownPath } from "@/lib/api/unknown-path";

export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE };
