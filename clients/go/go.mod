module github.com/nen-dev/nen/clients/go

go 1.26

require golang.org/x/crypto v0.55.0

require golang.org/x/sys v0.47.0 // indirect
