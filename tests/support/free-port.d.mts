/** Types of ./free-port.mjs (a free TCP port on 127.0.0.1 for the tests' own servers). */
export declare function freePort(): Promise<number>;
