/** The report's help: what each figure counts, out of which emails, and what it says when nothing could measure it. */
export function CountingHelp() {
  return (
    <details className="-mt-2 text-[13px] text-zinc-600">
      <summary className="cursor-pointer font-medium text-zinc-700">How these figures are counted</summary>
      <ul className="mt-2 flex list-disc flex-col gap-1 pl-5">
        <li>
          <strong>Delivered</strong> counts the delivery reports receiving servers send back, out of the emails that could get one: those sent through your
          domain&apos;s relay, which asks for them. Mail sent through an inbox gets none; when no email could, it reads &ldquo;not reported&rdquo;, never
          0&nbsp;%.
        </li>
        <li>
          <strong>Opened</strong> and <strong>Clicked</strong> count people, each email once, out of the emails the receiving server accepted with the open
          pixel or with a tracked link. An email sent with tracking off, without an HTML part or without a link cannot show an open or a click: it is left out,
          and when no email could show one the figure reads &ldquo;not tracked&rdquo;.
        </li>
        <li>
          <strong>Opens</strong> loaded through Gmail&apos;s or Yahoo&apos;s image proxy are people&apos;s: those proxies fetch the images when the person opens
          the email.
        </li>
        <li>
          <strong>Apple Mail Privacy Protection</strong> loads every email&apos;s images whether or not it is read: those opens, and clicks by link scanners and
          bots, are kept apart as machine activity and left out of every rate.
        </li>
        <li>
          <strong>Replied</strong>, <strong>Bounced</strong>, <strong>Complaints</strong> and <strong>Unsubscribed</strong> are out of every email sent,
          including those refused at the door.
        </li>
      </ul>
    </details>
  );
}
