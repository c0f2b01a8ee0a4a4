// The conformance kit's vectors (conformance/vectors) through CheckVectors, one subtest each.

package nen

import (
	"os"
	"path/filepath"
	"testing"
)

// kitDir is the repository's conformance kit (conformance/vectors).
var kitDir = filepath.Join("..", "..", "conformance", "vectors")

func TestConformanceVectors(t *testing.T) {
	if _, err := os.Stat(kitDir); err != nil {
		t.Skip("conformance/vectors is not in this checkout")
	}
	res, err := CheckVectors(kitDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < 100 {
		t.Fatalf("only %d vectors checked", len(res))
	}
	for _, r := range res {
		t.Run(r.File+"/"+r.Name, func(t *testing.T) {
			if !r.OK {
				t.Fatal(r.Detail)
			}
		})
	}
}
