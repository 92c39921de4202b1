export const IMAGE_FILES = {
  accept: "image/png,image/jpeg,image/gif,image/webp",
  label: "Image file",
  action: "Choose an image",
  hint: "PNG, JPEG, GIF or WebP, up to 5 MB. You can also drop or paste images straight into the email.",
};

/** "logo-dark.png" → "logo dark": a start for the alt text, which the pre-send check asks for. */
export const altFromName = (name: string) =>
  name
    .replace(/\.[a-z0-9]+$/i, "")
    .replace(/[-_]+/g, " ")
    .trim();
