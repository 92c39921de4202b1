import { defineOperation } from "@/lib/api/operation";
import { parseCursorParams } from "@/lib/api/pagination";
import { createSection, deleteSection, listSections, updateSection } from "@/lib/services/sections";
import { createSectionContract, deleteSectionContract, listSectionsContract, updateSectionContract } from "@/lib/contracts/sections";

export const createSectionOperation = defineOperation({
  ...createSectionContract,
  handler: (ctx, { body }) => createSection(ctx, body),
});

export const listSectionsOperation = defineOperation({
  ...listSectionsContract,
  page: (search) => parseCursorParams(search),
  handler: (ctx, { page }) => listSections(ctx, page),
});

export const updateSectionOperation = defineOperation({
  ...updateSectionContract,
  handler: (ctx, { params, body }) => updateSection(ctx, params.id, body),
});

export const deleteSectionOperation = defineOperation({
  ...deleteSectionContract,
  handler: (ctx, { params }) => deleteSection(ctx, params.id),
});

export const sectionsOperations = [createSectionOperation, listSectionsOperation, updateSectionOperation, deleteSectionOperation];
