import type { OrgContext } from "@/lib/api/context";
import { AppError } from "@/lib/api/errors";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { normalizeEmail } from "@/lib/schemas/common";
import type { SignUpInput } from "@/lib/schemas/accounts";

export async function authenticateUser(email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) } });
  if (!user || !(await verifyPassword(password, user.password_hash))) return null;
  return user;
}

/** A new organization whose first user is its owner. */
export async function createOrganizationWithOwner(input: { name: string; email: string; password?: string; userName?: string }) {
  const email = normalizeEmail(input.email);
  const existing = await db.user.findUnique({ where: { email } });
  const password_hash = existing ? existing.password_hash : await hashPassword(input.password ?? crypto.randomUUID());
  return db.$transaction(async (tx) => {
    const user = existing ?? (await tx.user.create({ data: { email, name: input.userName ?? "", password_hash } }));
    const organization = await tx.organization.create({ data: { name: input.name } });
    await tx.membership.create({ data: { organization_id: organization.id, user_id: user.id, role: "owner" } });
    return { organization, user };
  });
}

/**
 * Dashboard sign-up. Someone arriving from an invitation joins that organization by accepting it,
 * so they get no organization of their own; everyone else owns a new one.
 */
export async function signUp(input: SignUpInput) {
  const email = normalizeEmail(input.email);
  if (await db.user.findUnique({ where: { email } })) {
    throw new AppError("CONFLICT", "An account with this email already exists. Sign in instead.", [
      { path: "email", message: "is already registered" },
    ]);
  }
  const password_hash = await hashPassword(input.password);
  if (input.invitation_token) {
    const user = await db.user.create({ data: { email, name: input.name, password_hash } });
    return { user, organization: null };
  }
  const orgName = input.organization_name ?? `${input.name}'s organization`;
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email, name: input.name, password_hash } });
    const organization = await tx.organization.create({ data: { name: orgName } });
    await tx.membership.create({ data: { organization_id: organization.id, user_id: user.id, role: "owner" } });
    return { user, organization };
  });
}

export async function listUserOrganizations(userId: string) {
  const memberships = await db.membership.findMany({
    where: { user_id: userId },
    include: { organization: { select: { id: true, name: true } } },
    orderBy: { created_at: "asc" },
  });
  return memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role }));
}

export async function createOrganizationForUser(userId: string, name: string) {
  return db.$transaction(async (tx) => {
    const organization = await tx.organization.create({ data: { name } });
    await tx.membership.create({ data: { organization_id: organization.id, user_id: userId, role: "owner" } });
    return { id: organization.id, name: organization.name, role: "owner" as const };
  });
}

export async function getCurrentUser(ctx: Pick<OrgContext, "userId">) {
  const user = await db.user.findUniqueOrThrow({ where: { id: ctx.userId } });
  return { id: user.id, email: user.email, name: user.name };
}

/**
 * What the dashboard needs about who is signed in: the user, every organization with the role
 * held there, and the one in use (the wanted one when the user is a member, else the first).
 */
export async function describeSession(userId: string, wantedOrganizationId: string | null) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, name: true } });
  if (!user) return null;
  const organizations = await listUserOrganizations(userId);
  const current = organizations.find((o) => o.id === wantedOrganizationId) ?? organizations[0] ?? null;
  return { user, organizations, current_organization_id: current?.id ?? null, role: current?.role ?? null };
}

/** The user's role in an organization, or null when not a member. */
export async function membershipRole(userId: string, organizationId: string) {
  const membership = await db.membership.findUnique({
    where: { organization_id_user_id: { organization_id: organizationId, user_id: userId } },
    select: { role: true },
  });
  return membership?.role ?? null;
}

/** Whether an account exists for an address (the invitation page offers sign-in or sign-up). */
export async function isRegistered(email: string) {
  return (await db.user.count({ where: { email: normalizeEmail(email) } })) > 0;
}
