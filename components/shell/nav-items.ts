import {
  BookOpen,
  ClipboardList,
  FileText,
  Filter,
  Inbox,
  LayoutDashboard,
  Mail,
  Megaphone,
  Settings,
  ShieldBan,
  Tags,
  Users,
  UsersRound,
  Webhook,
  Workflow,
  type LucideIcon,
} from "lucide-react";

export type NavItem = { href: string; label: string; icon: LucideIcon };

export const navSections: { label?: string; items: NavItem[] }[] = [
  {
    items: [
      { href: "/", label: "Overview", icon: LayoutDashboard },
      { href: "/inbox", label: "Inbox", icon: Inbox },
      { href: "/broadcasts", label: "Broadcasts", icon: Megaphone },
      { href: "/automations", label: "Automations", icon: Workflow },
      { href: "/contacts", label: "Contacts", icon: Users },
      { href: "/segments", label: "Segments", icon: Filter },
      { href: "/topics", label: "Topics", icon: Tags },
      { href: "/forms", label: "Forms", icon: ClipboardList },
      { href: "/templates", label: "Templates", icon: FileText },
      { href: "/emails", label: "Emails", icon: Mail },
      { href: "/suppressions", label: "Suppressions", icon: ShieldBan },
    ],
  },
  {
    label: "Developers",
    items: [
      { href: "/webhooks", label: "Webhooks", icon: Webhook },
      { href: "/api-reference", label: "API reference", icon: BookOpen },
    ],
  },
  {
    label: "Organization",
    items: [
      { href: "/team", label: "Team", icon: UsersRound },
      { href: "/settings", label: "Settings", icon: Settings },
    ],
  },
];

// Home is active on itself only, not on every page below it.
export const isActive = (pathname: string, href: string) => pathname === href || (href !== "/" && pathname.startsWith(`${href}/`));
