import { defineOperation } from "@/lib/api/operation";
import { exportContactContract, exportContactsContract } from "@/lib/contracts/contact-data";
import { exportContact } from "@/lib/services/contact-data";
import { exportContacts } from "@/lib/services/contacts-export";

export const exportContactsOperation = defineOperation({ ...exportContactsContract, handler: (ctx, { query }) => exportContacts(ctx, query) });

export const exportContactOperation = defineOperation({ ...exportContactContract, handler: (ctx, { params }) => exportContact(ctx, params.id) });

export const contactDataOperations = [exportContactsOperation, exportContactOperation];
