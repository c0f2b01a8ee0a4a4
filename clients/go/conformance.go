// CheckVectors checks the conformance kit's vector files (conformance/vectors/README.md in the
// repository) with this package's own implementation: handshakes (decapsulation, transcript,
// S_0, confirm, epoch keys), sealed requests and responses and the rejects, record streams
// (intact and broken, fed in small pieces), the error classification, the retry rules and the
// request-target canonicalisation. The conformance driver (cmd/nen-conformance) reports it.
//
// Pitfalls: the kit's encapsulations used fresh randomness, so the client side is checked by
// decapsulating with the given private keys, never by re-encapsulating; a vector kind this file
// does not know is reported as failed ("unsupported"), never skipped.

package nen

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// VectorResult is one vector's outcome, named as the kit's README says.
type VectorResult struct {
	File   string `json:"file"`
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

type vectorChecker struct {
	results  []VectorResult
	sessions map[string]*hsVector
}

func (c *vectorChecker) report(file, name string, err error) {
	r := VectorResult{File: file, Name: name, OK: err == nil}
	if err != nil {
		r.Detail = err.Error()
	}
	c.results = append(c.results, r)
}

// CheckVectors checks every *.vectors.json file in dir.
func CheckVectors(dir string) ([]VectorResult, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.vectors.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no vector files in %s", dir)
	}
	sort.Slice(files, func(i, j int) bool { return vectorOrder(files[i]) < vectorOrder(files[j]) })
	c := &vectorChecker{sessions: map[string]*hsVector{}}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(f)
		switch name {
		case "handshake.vectors.json":
			err = c.handshakes(name, raw)
		case "messages.vectors.json":
			err = c.messages(name, raw)
		case "streams.vectors.json":
			err = c.streams(name, raw)
		case "errors.vectors.json":
			err = c.errors(name, raw)
		case "retry.vectors.json":
			err = c.retries(name, raw)
		case "canonical-target.vectors.json":
			err = c.targets(name, raw)
		default:
			c.report(name, name, fmt.Errorf("unsupported"))
		}
		if err != nil {
			c.report(name, name, err)
		}
	}
	return c.results, nil
}

// vectorOrder checks handshakes first: the other files name its sessions.
func vectorOrder(f string) string {
	if strings.HasSuffix(f, "handshake.vectors.json") {
		return ""
	}
	return f
}

type hexBytes []byte

func (h *hexBytes) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil {
		*h = nil
		return nil
	}
	v, err := hex.DecodeString(*s)
	*h = v
	return err
}

func differ(what string, got, want []byte) error {
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s differs", what)
	}
	return nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

type targetVectors struct {
	Targets []struct{ Name, Target, Canonical string }      `json:"targets"`
	URLs    []struct{ Name, URL, Target, Canonical string } `json:"urls"`
}

func (c *vectorChecker) targets(file string, raw []byte) error {
	var v targetVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	for _, t := range v.Targets {
		path, q, _ := strings.Cut(t.Target, "?")
		var err error
		if got := canonicalTarget(path, q); got != t.Canonical {
			err = fmt.Errorf("got %q", got)
		}
		c.report(file, t.Name, err)
	}
	for _, t := range v.URLs {
		var err error
		if target, terr := targetOfURL(t.URL); terr != nil {
			err = terr
		} else if target != t.Target {
			err = fmt.Errorf("target %q", target)
		} else if path, q, _ := strings.Cut(target, "?"); canonicalTarget(path, q) != t.Canonical {
			err = fmt.Errorf("canonical %q", canonicalTarget(path, q))
		}
		c.report(file, t.Name, err)
	}
	return nil
}

// targetOfURL is the request target this transport sends for an absolute URL.
func targetOfURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	p := preparePath(u)
	if q := wireQuery(u.RawQuery); q != "" {
		return p + "?" + q, nil
	}
	return p, nil
}

type errorVectors struct {
	Wire []struct {
		Code    string
		Status  int
		Headers map[string]string
	} `json:"wire"`
	Classification []struct {
		Name    string
		Status  int
		Headers map[string]string
		Expect  string
	} `json:"classification"`
}

func fakeResponse(status int, headers map[string]string, body []byte) *http.Response {
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}
}

func (c *vectorChecker) errors(file string, raw []byte) error {
	var v errorVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	for _, w := range v.Wire {
		e := serverError(fakeResponse(w.Status, w.Headers, nil), "no envelope")
		var err error
		if e.Code != w.Code || e.Status != w.Status {
			err = fmt.Errorf("classified as %s/%d", e.Code, e.Status)
		}
		c.report(file, "wire "+w.Code, err)
	}
	for _, x := range v.Classification {
		e := serverError(fakeResponse(x.Status, x.Headers, nil), "no envelope")
		var err error
		if e.Code != x.Expect {
			err = fmt.Errorf("classified as %s", e.Code)
		}
		c.report(file, "classify "+x.Name, err)
	}
	return nil
}

type retryVectors struct {
	Rules []struct {
		Answer struct {
			Status int
			Code   string
		}
		Request string
		Action  string
		Backoff bool
		Final   string
	} `json:"rules"`
}

func (c *vectorChecker) retries(file string, raw []byte) error {
	var v retryVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	for _, r := range v.Rules {
		answer := &Error{Code: r.Answer.Code, Status: r.Answer.Status}
		age := retryHorizon / 2
		if r.Request == "original-older-than-60s" {
			age = retryHorizon + 1
		}
		d := decide(answer, r.Request == "streamed-body", age, r.Request == "retry", true)
		var err error
		switch {
		case r.Action == "retry" && (!d.retry || d.backoff != r.Backoff):
			err = fmt.Errorf("not retried as the rule says (retry %v, backoff %v)", d.retry, d.backoff)
		case r.Action == "throw" && (d.retry || CodeOf(d.final) != r.Final):
			err = fmt.Errorf("reported %s", CodeOf(d.final))
		}
		c.report(file, r.Answer.Code+" "+r.Request, err)
	}
	return nil
}
