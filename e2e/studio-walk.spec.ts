import type { Locator } from "@playwright/test";
import { expect, finalScreenshot, fromDashboard, signUp, test, uniqueEmail, allowConsoleError } from "./fixtures";

test.describe.configure({ timeout: 240_000 });

// A 1×1 PNG, dropped into the editor as a file from the desktop would be.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Drops files onto the editor as a file dragged from the desktop would be: `[name, base64 bytes or a size in bytes]`. */
async function dropFile(content: Locator, name: string, bytes: string | number) {
  await content.evaluate(
    (editor, [fileName, data]) => {
      const body = typeof data === "number" ? new Uint8Array(data) : Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([body], fileName as string, { type: "image/png" }));
      const box = editor.getBoundingClientRect();
      const at = { bubbles: true, cancelable: true, dataTransfer: transfer, clientX: box.left + 40, clientY: box.top + 20 };
      for (const type of ["dragenter", "dragover", "drop"]) editor.dispatchEvent(new DragEvent(type, at));
    },
    [name, bytes] as const,
  );
}

/**
 * One marketer, one session: the brand colour set in Settings, then a broadcast whose image is
 * dragged from the desktop into the visual editor (uploaded to the media library and served by the
 * app; a 6 MB one refused before it is sent), a block shown only to pro contacts, previewed as a pro
 * and a free contact in that colour; the image saved as a header section and inserted into a
 * second broadcast.
 */
test("set the brand colour, drop an image into the editor, show a block to some contacts, see them in the preview, reuse a section", async ({
  page,
}, testInfo) => {
  await signUp(page, { name: "Bea Brand", email: uniqueEmail("brand"), password: "correct horse battery", organizationName: "Brand Co" });
  const pat = uniqueEmail("pat");
  const quinn = uniqueEmail("quinn");
  for (const data of [
    { email: pat, first_name: "Pat", metadata: { plan: "pro" } },
    { email: quinn, first_name: "Quinn", metadata: { plan: "free" } },
  ]) {
    expect((await page.request.post("/v1/contacts", { data, headers: fromDashboard(page) })).status()).toBe(201);
  }

  // Settings → Brand: the primary colour.
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("tab", { name: "Brand" }).click();
  await expect(page).toHaveURL(/tab=brand/);
  await page.getByRole("textbox", { name: "Primary colour", exact: true }).fill("#ff6600");
  await expect(page.getByRole("img", { name: "Brand sample" }).getByText("A button")).toHaveCSS("background-color", "rgb(255, 102, 0)");
  await page.getByRole("button", { name: "Save brand" }).click();
  await expect(page.getByText("Brand saved")).toBeVisible();

  // Broadcasts → a new draft in the visual editor.
  await page.getByRole("link", { name: "Broadcasts" }).first().click();
  await page.getByRole("button", { name: "New broadcast" }).first().click();
  const create = page.getByRole("dialog", { name: "New broadcast" });
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Brand letter");
  await create.getByRole("textbox", { name: "Subject", exact: true }).fill("Hello {{first_name|you}}");
  await create.getByRole("textbox", { name: "From address" }).fill("bea@brand.test");
  await create.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL(/\/broadcasts\/[0-9a-f-]{36}$/);
  const broadcastId = page.url().split("/").pop()!;

  const content = page.getByRole("textbox", { name: "Email content" });
  await expect(content).toBeVisible();
  await content.click();
  await page.keyboard.type("Our new collection is here");

  // Drag an image file from the desktop onto the text: it is uploaded, then shown in the email.
  await dropFile(content, "spring-hero.png", PNG);
  const image = content.locator("img.email-image");
  await expect(image).toHaveAttribute("src", /\/m\/[A-Za-z0-9_-]{24}\.png$/, { timeout: 20_000 });
  await expect(image).toHaveAttribute("alt", "spring hero");
  const src = (await image.getAttribute("src"))!;
  const served = await page.request.get(new URL(src).pathname);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["cache-control"]).toContain("max-age=31536000");
  // The media library has it for the next email.
  await page.getByRole("button", { name: "Insert image" }).click();
  const imageDialog = page.getByRole("dialog", { name: "Image" });
  await expect(imageDialog.getByRole("list", { name: "Media library" }).getByRole("button", { name: "Use spring-hero.png" })).toBeVisible();
  await imageDialog.getByRole("button", { name: "Cancel" }).click();
  // A 6 MB photo is refused with the limit, before it is read and sent.
  await dropFile(content, "huge-photo.png", 6 * 1024 * 1024);
  await expect(page.getByText("huge-photo.png was not uploaded")).toBeVisible();
  await expect(page.getByText("huge-photo.png is 6.0 MB: an image may be at most 5 MB")).toBeVisible();
  await expect(content.locator("img.email-image")).toHaveCount(1);

  // A button, to carry the brand colour.
  await content.getByText("Our new collection is here").click();
  await page.keyboard.press("End");
  await page.getByRole("button", { name: "Insert button" }).click();
  const button = page.getByRole("dialog", { name: "Button" });
  await button.getByLabel("Button text").fill("Shop the collection");
  await button.getByLabel("Button link").fill("https://example.com/shop");
  await button.getByRole("button", { name: "Add" }).click();

  // A paragraph for pro contacts only: the segments' filter builder, on a metadata key contacts carry.
  await content.getByText("Our new collection is here").click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Pro corner: early access for you");
  await page.getByRole("button", { name: "Show only to some contacts" }).click();
  const condition = page.getByRole("dialog", { name: "Show only to some contacts" });
  await condition.getByLabel("Filter condition 1: field").selectOption({ label: "plan" });
  await condition.getByLabel("Filter condition 1: comparison").selectOption({ label: "is" });
  await condition.getByLabel("Filter condition 1: value").fill("pro");
  await condition.getByRole("button", { name: "Apply condition" }).click();
  await expect(condition).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(async () => (await (await page.request.get(`/v1/broadcasts/${broadcastId}`)).json()).content_json.content.map((b: { type: string }) => b.type))
    .toEqual(expect.arrayContaining(["image", "button", "conditional"]));
  const saved = await (await page.request.get(`/v1/broadcasts/${broadcastId}`)).json();
  // The builder's filter: one group, as the segments save theirs.
  expect(saved.content_json.content.find((b: { type: string }) => b.type === "conditional").attrs.filter).toEqual({
    all: [{ field: "metadata.plan", op: "eq", value: "pro" }],
  });
  expect(saved.html_content).toContain(`src="${src}"`);

  // Preview as Pat: the server's rendering, in the brand's colour, with the dropped image.
  allowConsoleError(page, /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/);
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("dialog", { name: "Preview" });
  await preview.getByRole("searchbox", { name: /Preview as/ }).fill(pat.slice(0, 12));
  await preview.getByRole("button", { name: new RegExp(pat.replace(/[.+]/g, "\\$&")) }).click();
  await expect(preview.getByRole("group", { name: "Inbox row" })).toContainText("Hello Pat");
  const frame = preview.locator('iframe[title="Email preview"]');
  await expect(frame).toHaveAttribute("srcdoc", /background:#ff6600/);
  await expect(frame).toHaveAttribute("srcdoc", new RegExp(`src="${src.replace(/[.?]/g, "\\$&")}"`));
  await expect(frame).toHaveAttribute("srcdoc", /Pro corner: early access for you/);
  // As Quinn (plan free): the same email without the pro block.
  await preview.getByRole("searchbox", { name: /Preview as/ }).fill(quinn.slice(0, 12));
  await preview.getByRole("button", { name: new RegExp(quinn.replace(/[.+]/g, "\\$&")) }).click();
  await expect(preview.getByRole("group", { name: "Inbox row" })).toContainText("Hello Quinn");
  await expect(frame).not.toHaveAttribute("srcdoc", /Pro corner/);
  await expect(frame).toHaveAttribute("srcdoc", /Our new collection is here/);
  await preview.getByRole("button", { name: "Close" }).click();
  await expect(preview).toBeHidden();

  // The image saved as a header section…
  await image.click();
  await page.getByRole("button", { name: "Sections" }).click();
  const sections = page.getByRole("dialog", { name: "Saved sections" });
  await expect(sections.getByText("Save the selected blocks as a section:")).toBeVisible();
  await sections.getByRole("textbox", { name: "Name" }).fill("Brand header");
  await sections.getByRole("button", { name: "Save section" }).click();
  await expect(page.getByText("Section saved")).toBeVisible();

  // …and inserted into another email.
  await page.getByRole("link", { name: "Broadcasts" }).first().click();
  await page.getByRole("button", { name: "New broadcast" }).first().click();
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Second letter");
  await create.getByRole("textbox", { name: "Subject", exact: true }).fill("More news");
  await create.getByRole("textbox", { name: "From address" }).fill("bea@brand.test");
  await create.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL((url) => /\/broadcasts\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(broadcastId));
  const secondId = page.url().split("/").pop()!;
  await content.click();
  await page.keyboard.type("Second news");
  await page.getByRole("button", { name: "Sections" }).click();
  await sections.getByRole("listitem").filter({ hasText: "Brand header" }).getByRole("button", { name: "Insert" }).click();
  await expect(sections).toBeHidden();
  await expect(content.locator("img.email-image")).toHaveAttribute("src", src);
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => (await (await page.request.get(`/v1/broadcasts/${secondId}`)).json()).html_content).toContain(`src="${src}"`);
  await finalScreenshot(page, testInfo, "studio-walk");
});
