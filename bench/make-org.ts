// An organization with an owner and an API key in the database of DATABASE_URL, made by the same
// services as the benchmark's own createOrg, in a process of its own: the services' client is bound
// to one database per process, and the scenarios of tables that grow (issue 29) run databases of
// their own beside the benchmark's. Sends { organizationId, token } to the parent.
import { createOrganizationWithOwner } from "@/lib/services/accounts";
import { issueApiKey } from "@/lib/services/api-keys";

const name = process.argv[2] ?? "bench";
const { organization, user } = await createOrganizationWithOwner({ name, email: `owner+${name}-${process.pid}@bench.example` });
const key = await issueApiKey(organization.id, user.id, "bench");
process.send!({ organizationId: organization.id, token: key.token }, () => process.exit(0));
