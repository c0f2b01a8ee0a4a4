// The package example shown in the documentation (a pinned http.Client, errors.As on *nen.Error).

package nen_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	nen "github.com/nen-dev/nen/clients/go"
)

// A pinned client: every request is sealed, every answer authenticated before it is returned.
func ExampleNewTransport() {
	t, err := nen.NewTransport(http.DefaultTransport, nen.WithPins(os.Getenv("NEN_SERVER_KEY")))
	if err != nil {
		fmt.Println(nen.CodeOf(err)) // no pin in the environment: refused, never unpinned by default
		return
	}
	client := &http.Client{Transport: t}
	res, err := client.Post("https://app.example.com/api/notes", "application/json", strings.NewReader(`{"title":"hi"}`))
	var e *nen.Error
	if errors.As(err, &e) && e.Code == nen.CodeOutcomeUnknown {
		return // sent, no authenticated answer: the handler ran at most once
	}
	if err == nil {
		defer res.Body.Close()
		io.Copy(os.Stdout, res.Body)
	}
	// Output: NEN_BAD_SERVER_KEY
}
