/** A `.wasm` file imported as a module: a WebAssembly.Module compiled by the platform (workerd). */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
