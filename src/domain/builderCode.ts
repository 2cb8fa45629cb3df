/**
 * What any builder code looks like: 1 to 64 letters, digits, "-" or "_" (a code travels in URLs
 * and memos). Codes an organization claims are narrower (controlPlane/codeName.ts).
 */
export const BUILDER_CODE = /^[A-Za-z0-9_-]{1,64}$/

export const isBuilderCode = (text: string): boolean => BUILDER_CODE.test(text)
