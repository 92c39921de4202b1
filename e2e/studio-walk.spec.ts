import { expect, finalScreenshot, fromDashboard, signUp, test, uniqueEmail, allowConsoleError } from "./fixtures";

test.describe.configure({ timeout: 240_000 });

// A 1×1 PNG, dropped into the editor as a file from the desktop would be.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/**
 * One marketer, one session: the brand colour set in Settings, then a broadcast whose image is
 * dragged from the desktop into the visual editor (uploaded to the media library and served by the
 * app), previewed as a contact in that colour.
 */
test("set the brand colour, drop an image into the editor, and see both in the preview", async ({ page }, testInfo) => {
  await signUp(page, { name: "Bea Brand", email: uniqueEmail("brand"), password: "correct horse battery", organizationName: "Brand Co" });
  const pat = uniqueEmail("pat");
  expect((await page.request.post("/v1/contacts", { data: { email: pat, first_name: "Pat" }, headers: fromDashboard(page) })).status()).toBe(201);

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
  await content.evaluate((editor, base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "spring-hero.png", { type: "image/png" }));
    const box = editor.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, dataTransfer: transfer, clientX: box.left + 40, clientY: box.top + 20 };
    for (const type of ["dragenter", "dragover", "drop"]) editor.dispatchEvent(new DragEvent(type, at));
  }, PNG);
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

  // A button, to carry the brand colour.
  await content.getByText("Our new collection is here").click();
  await page.keyboard.press("End");
  await page.getByRole("button", { name: "Insert button" }).click();
  const button = page.getByRole("dialog", { name: "Button" });
  await button.getByLabel("Button text").fill("Shop the collection");
  await button.getByLabel("Button link").fill("https://example.com/shop");
  await button.getByRole("button", { name: "Add" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });
  const saved = await (await page.request.get(`/v1/broadcasts/${broadcastId}`)).json();
  expect(saved.content_json.content.map((b: { type: string }) => b.type)).toEqual(expect.arrayContaining(["image", "button"]));
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
  await finalScreenshot(page, testInfo, "studio-walk");
});
