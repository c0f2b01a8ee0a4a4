/** Types of ./browser-modules.mjs (the module server of the real-Chromium tests). */
export declare function importMap(imports?: Record<string, string>): string;
export declare const IMPORT_MAP: string;
export interface ModuleServer {
  readonly origin: string;
  /** Every request path, in order. */
  readonly served: string[];
  close(): Promise<void>;
}
export declare function serveModules(pages: Record<string, string>, needs: string, extraRoots?: Record<string, string>): Promise<ModuleServer>;
