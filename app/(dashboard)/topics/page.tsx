import type { Metadata } from "next";
import { TopicsList } from "@/components/topics/topics-list";

export const metadata: Metadata = { title: "Topics" };

export default function TopicsPage() {
  return <TopicsList />;
}
