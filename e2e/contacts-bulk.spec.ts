import { readFile } from "node:fs/promises";
import { api, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 180_000 });

test("select three contacts and add them to a segment, then select a filtered page and unsubscribe it", async ({ page }, testInfo) => {
  await signUp(page, { name: "Bea Bulk", email: uniqueEmail("bulk"), password: "correct horse battery", organizationName: "Bulk Co" });
  const tag = Date.now().toString(36);
  const people = ["ann", "ben", "cat", "dan", "eve"].map((name) => ({ email: `${name}-${tag}@example.test`, tags: name === "eve" ? [] : ["lead"] }));
  // A crowd larger than a request changes at once (1 000): acting on all of it becomes a job.
  const crowd = Array.from({ length: 1030 }, (_, i) => ({ email: `crowd${i}-${tag}@example.test`, tags: ["crowd"] }));
  await api(page, "POST", "/v1/contacts/bulk", { contacts: crowd });
  // Created after the crowd: on the list's first page (newest first).
  await api(page, "POST", "/v1/contacts/bulk", { contacts: people });
  const segment = await api<{ id: string }>(page, "POST", "/v1/segments", { name: "Picked by hand" });

  await page.goto("/contacts");
  for (const name of ["ann", "cat", "eve"]) await page.getByRole("checkbox", { name: `Select ${name}-${tag}@example.test` }).check();
  const bar = page.getByRole("toolbar", { name: "Selected contacts" });
  await expect(bar).toContainText("3 contacts selected");
  await bar.getByRole("button", { name: "Add to segment" }).click();
  const dialog = page.getByRole("dialog", { name: "Add 3 contacts to a segment" });
  await dialog.getByLabel("Segment").selectOption({ label: "Picked by hand" });
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText("3 contacts added to the segment")).toBeVisible();
  await expect(bar).toBeHidden();
  const members = await api<{ contacts: { email: string }[] }>(page, "GET", `/v1/contacts?segment_id=${segment.id}`);
  expect(members.contacts.map((c) => c.email).sort()).toEqual(["ann", "cat", "eve"].map((n) => `${n}-${tag}@example.test`));

  // The same three ticked again and exported: the file holds them and nobody else.
  for (const name of ["ann", "cat", "eve"]) await page.getByRole("checkbox", { name: `Select ${name}-${tag}@example.test` }).check();
  const download = page.waitForEvent("download");
  await bar.getByRole("button", { name: "Export CSV" }).click();
  const csv = await readFile((await (await download).path())!, "utf8");
  const exported = csv.trim().split("\n").slice(1);
  expect(exported).toHaveLength(3);
  for (const name of ["ann", "cat", "eve"]) expect(csv).toContain(`${name}-${tag}@example.test`);
  await bar.getByRole("button", { name: "Clear the selection" }).click();
  await expect(bar).toBeHidden();

  // The whole crowd, through "select all matching" beyond the page: tagged by a job, its progress in a toast.
  await page.getByLabel("Filter by tags; contacts must have all of them").fill("crowd");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("checkbox", { name: /^Select crowd.*@/ })).toHaveCount(25);
  await page.getByRole("checkbox", { name: "Select the contacts on this page" }).check();
  await expect(bar).toContainText("25 contacts selected");
  await page.getByRole("button", { name: "Select all 1,030 matching" }).click();
  await expect(bar).toContainText("1,030 contacts selected");
  await bar.getByRole("button", { name: "Add tags" }).click();
  const tagDialog = page.getByRole("dialog", { name: "Tag 1,030 contacts" });
  await tagDialog.getByLabel("Tags").fill("spring");
  await page.keyboard.press("Enter");
  await tagDialog.getByRole("button", { name: "Add tags" }).click();
  await expect(page.getByText("Working on 1,030 contacts…")).toBeVisible();
  await expect(page.getByText("1,030 contacts tagged")).toBeVisible({ timeout: 60_000 });
  expect((await api<{ total: number }>(page, "GET", "/v1/contacts?tags=spring&limit=1")).total).toBe(1030);
  await page.getByRole("button", { name: "Clear", exact: true }).click();

  // Every contact tagged "lead" (four): the page ticked, all of the matching on it.
  await page.getByLabel("Filter by tags; contacts must have all of them").fill("lead");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("checkbox", { name: /^Select .*@/ })).toHaveCount(4);
  await page.getByRole("checkbox", { name: "Select the contacts on this page" }).check();
  await expect(bar).toContainText("4 contacts selected");
  await bar.getByRole("button", { name: "Unsubscribe" }).click();
  await page.getByRole("alertdialog", { name: "Unsubscribe 4 contacts?" }).getByRole("button", { name: "Unsubscribe 4 contacts" }).click();
  await expect(page.getByText("4 contacts unsubscribed")).toBeVisible();
  const unsubscribed = await api<{ total: number }>(page, "GET", "/v1/contacts?subscribed=false&limit=10");
  expect(unsubscribed.total).toBe(4);
  await finalScreenshot(page, testInfo, "contacts-bulk");
});
