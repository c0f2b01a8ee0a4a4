// The module's version. Releases are tagged clients/go/vX.Y.Z in the repository (the tag form
// Go uses for a module in a subdirectory), so `go get github.com/nen-dev/nen/clients/go@vX.Y.Z`
// resolves it. Pitfall: keep this constant equal to the tag.

package nen

// Version is this client's version (semantic versioning).
const Version = "0.1.0"
