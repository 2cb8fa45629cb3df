/** Builds a TypeScript entry (path from the project root) and its imports; resolves to the built entry's file URL. */
export declare const buildSources: (entry: string) => Promise<string>
