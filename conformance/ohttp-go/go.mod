module github.com/nen-dev/nen/conformance/ohttp-go

go 1.26
