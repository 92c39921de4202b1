import { CalendarClock, CircleCheck, Link2Off, MailWarning, Undo2 } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { AcceptInvitationButton } from "@/components/invitations/accept-invitation-button";
import { InvitationNotice } from "@/components/invitations/invitation-notice";
import { OpenOrganizationButton } from "@/components/invitations/open-organization-button";
import { SwitchAccountButton } from "@/components/invitations/switch-account-button";
import { OrganizationAvatar } from "@/components/shell/organization-avatar";
import { VerifyEmailBanner } from "@/components/shell/verify-email-banner";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { sessionUserId } from "@/lib/auth/session-user";
import { getCurrentUser, isRegistered, membershipRole } from "@/lib/services/accounts";
import { describeInvitation } from "@/lib/services/invitations";

export const metadata: Metadata = { title: "Invitation" };

const longDate = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" });
const withArticle = (role: string) => (role === "admin" ? "an admin" : `a ${role}`);
const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

type Props = { params: Promise<{ token: string }> };

export default async function InvitationPage({ params }: Props) {
  const { token } = await params;
  const here = `/invitations/${encodeURIComponent(token)}`;
  const [invitation, userId] = await Promise.all([describeInvitation(token), sessionUserId((await headers()).get("cookie"))]);
  const user = userId ? await getCurrentUser({ userId }).catch(() => null) : null;
  const dashboardLink = (
    <Link href="/" className={buttonClasses({ variant: "secondary", size: "lg", className: "w-full" })}>
      Go to the dashboard
    </Link>
  );
  const signInLink = (
    <Link href={`/sign-in?callbackUrl=${encodeURIComponent("/")}`} className={buttonClasses({ variant: "secondary", size: "lg", className: "w-full" })}>
      Sign in
    </Link>
  );

  if (!invitation) {
    return (
      <InvitationNotice icon={Link2Off} title="This invitation link does not work" actions={user ? dashboardLink : signInLink}>
        <p>It may be incomplete or mistyped. Open the link straight from the invitation email, or ask the person who invited you to send a new one.</p>
      </InvitationNotice>
    );
  }

  const org = invitation.organization;
  const inviter = invitation.inviter.name || invitation.inviter.email;
  const member = user ? await membershipRole(user.id, org.id) : null;

  if (invitation.status === "accepted") {
    return (
      <InvitationNotice
        icon={CircleCheck}
        tone="success"
        title="This invitation has already been accepted"
        actions={member ? <OpenOrganizationButton organizationId={org.id} organizationName={org.name} /> : user ? dashboardLink : signInLink}
      >
        <p>
          {member
            ? `You are a member of ${org.name}.`
            : `The invitation to ${org.name} was used. If that was not you, ask ${inviter} (${invitation.inviter.email}) to invite you again.`}
        </p>
      </InvitationNotice>
    );
  }

  if (invitation.status === "expired" || invitation.status === "cancelled") {
    const expired = invitation.status === "expired";
    return (
      <InvitationNotice
        icon={expired ? CalendarClock : Undo2}
        tone="warning"
        title={expired ? "This invitation has expired" : "This invitation was withdrawn"}
        actions={user ? dashboardLink : signInLink}
      >
        <p>
          {expired
            ? `The invitation to join ${org.name} ended on ${longDate.format(invitation.expires_at)}.`
            : `${inviter} cancelled the invitation to join ${org.name}.`}{" "}
          Ask {inviter} ({invitation.inviter.email}) to send you a new one.
        </p>
      </InvitationNotice>
    );
  }

  if (user && !sameEmail(user.email, invitation.email)) {
    return (
      <InvitationNotice
        icon={MailWarning}
        tone="warning"
        title="This invitation is for another address"
        actions={
          <>
            <SwitchAccountButton email={invitation.email} returnTo={here} label="Sign in with the invited address" />
            {dashboardLink}
          </>
        }
      >
        <p>
          {inviter} invited <span className="font-medium text-zinc-700">{invitation.email}</span> to join {org.name}, but you are signed in as{" "}
          <span className="font-medium text-zinc-700">{user.email}</span>.
        </p>
        <p>Sign out and sign in (or create an account) with the invited address to accept it.</p>
      </InvitationNotice>
    );
  }

  const registered = user ? true : await isRegistered(invitation.email);
  const signUpHref = `/sign-up?invitation=${encodeURIComponent(token)}&email=${encodeURIComponent(invitation.email)}`;
  const signInHref = `/sign-in?email=${encodeURIComponent(invitation.email)}&callbackUrl=${encodeURIComponent(here)}`;

  return (
    <Card className="px-6 py-8 shadow-sm sm:px-8">
      <div className="flex flex-col items-center text-center">
        <OrganizationAvatar name={org.name} className="mb-5 size-12 rounded-xl text-lg" />
        <p className="text-sm text-zinc-500">
          <span className="font-medium text-zinc-800">{inviter}</span> invited you to join
        </p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-zinc-900">{org.name}</h1>
      </div>
      <dl className="mt-6 divide-y divide-zinc-100 rounded-lg border border-zinc-200 text-sm">
        {[
          [
            "Role",
            <span key="role" className="capitalize">
              {invitation.role}
            </span>,
          ],
          ["Invited address", invitation.email],
          ["Invited by", `${inviter} · ${invitation.inviter.email}`],
          ["Valid until", longDate.format(invitation.expires_at)],
        ].map(([term, value]) => (
          <div key={String(term)} className="flex items-baseline justify-between gap-4 px-4 py-2.5">
            <dt className="shrink-0 text-zinc-500">{term}</dt>
            <dd className="min-w-0 truncate text-right font-medium text-zinc-800">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 flex flex-col gap-2">
        {member ? (
          <>
            <p className="mb-2 text-center text-sm text-zinc-500">You are already a member of {org.name}.</p>
            <OpenOrganizationButton organizationId={org.id} organizationName={org.name} />
          </>
        ) : user && !user.email_verified ? (
          // Joining needs a proven address: a link alone must not let anyone sign up as the invitee.
          <VerifyEmailBanner email={user.email} />
        ) : user ? (
          <>
            <AcceptInvitationButton token={token} organizationName={org.name} />
            <p className="mt-2 text-center text-xs text-zinc-500">
              You will join as {withArticle(invitation.role)}, signed in as {user.email}.
            </p>
          </>
        ) : (
          <>
            <Link href={registered ? signInHref : signUpHref} className={buttonClasses({ size: "lg", className: "w-full" })}>
              {registered ? "Sign in to accept" : "Create account"}
            </Link>
            <Link href={registered ? signUpHref : signInHref} className={buttonClasses({ variant: "secondary", size: "lg", className: "w-full" })}>
              {registered ? "Create account" : "Sign in"}
            </Link>
            <p className="mt-2 text-center text-xs text-zinc-500">
              {registered ? `Sign in as ${invitation.email} to accept.` : `Create an account with ${invitation.email}, then accept the invitation.`}
            </p>
          </>
        )}
      </div>
    </Card>
  );
}
