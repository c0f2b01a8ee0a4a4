// Command nen-conformance is the conformance driver of the Go client: it implements the
// repository's conformance/DRIVER.md (JSON Lines over stdio, one command at a time, answers in
// order, nothing else on stdout) on top of the nen package, so the runner can drive this client
// through every scenario and have it check the vector files.
//
// Pitfalls: byte strings are standard base64 with padding here (not the protocol's base64url);
// header names in answers are lower case; a failure that is not a *nen.Error is "NETWORK", a
// bug of this program "DRIVER".
package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	nen "github.com/nen-dev/nen/clients/go"
)

type command struct {
	ID           string            `json:"id"`
	Op           string            `json:"op"`
	Dir          string            `json:"dir"`
	Name         string            `json:"name"`
	Client       string            `json:"client"`
	Base         string            `json:"base"`
	SessionPath  string            `json:"sessionPath"`
	Pins         []string          `json:"pins"`
	KEM          string            `json:"kem"`
	TimeoutMs    int64             `json:"timeoutMs"`
	MaxBodyBytes int64             `json:"maxBodyBytes"`
	Method       string            `json:"method"`
	Path         string            `json:"path"`
	Headers      map[string]string `json:"headers"`
	Body         *string           `json:"body"`
	Text         *string           `json:"text"`
	ContentType  string            `json:"contentType"`
	Stream       bool              `json:"stream"`
}

type answer map[string]any

type instance struct {
	t    *nen.Transport
	http *http.Client
	base string
}

type driver struct {
	clients map[string]*instance
}

func main() {
	d := &driver{clients: map[string]*instance{}}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		var c command
		var a answer
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			a = answer{"ok": false, "code": "DRIVER", "message": "bad command: " + err.Error()}
		} else {
			a = d.handle(&c)
		}
		a["id"] = c.ID
		if err := enc.Encode(a); err != nil {
			fmt.Fprintln(os.Stderr, "nen-conformance:", err)
			os.Exit(1)
		}
		out.Flush()
	}
}

func (d *driver) handle(c *command) answer {
	switch c.Op {
	case "hello":
		return answer{"ok": true, "client": "go", "version": nen.Version, "features": []string{"xwing", "mlkem768", "stream", "retry", "pin", "unpinned", "query", "compression"}}
	case "vectors":
		res, err := nen.CheckVectors(c.Dir)
		if err != nil {
			return answer{"ok": false, "code": "DRIVER", "message": err.Error()}
		}
		return answer{"ok": true, "results": res}
	case "client":
		return d.client(c)
	case "handshake":
		in := d.clients[c.Client]
		if in == nil {
			return answer{"ok": false, "code": "DRIVER", "message": "no client " + c.Client}
		}
		s, err := in.t.Handshake(context.Background())
		if err != nil {
			return failure(err, nil)
		}
		var kid any
		if s.KeyID != "" {
			kid = s.KeyID
		}
		return answer{"ok": true, "keyId": kid, "kem": s.KEM, "pinned": s.Pinned, "sessionId": s.ID}
	case "fetch":
		in := d.clients[c.Client]
		if in == nil {
			return answer{"ok": false, "code": "DRIVER", "message": "no client " + c.Client}
		}
		return in.fetch(c)
	case "close":
		if in := d.clients[c.Client]; in != nil {
			in.t.Close()
		}
		return answer{"ok": true}
	}
	return answer{"ok": false, "code": "DRIVER", "message": "unknown op " + c.Op}
}

func (d *driver) client(c *command) answer {
	u, err := url.Parse(c.Base)
	if err != nil || u.Host == "" {
		return answer{"ok": false, "code": "NEN_BAD_INPUT", "message": "bad base URL"}
	}
	// sessionPath is absolute on the base's origin (as @nen/client resolves it), not under base.
	opts := []nen.Option{nen.WithBaseURL(u.Scheme + "://" + u.Host)}
	if c.SessionPath != "" {
		opts = append(opts, nen.WithSessionPath(c.SessionPath))
	}
	if len(c.Pins) > 0 {
		opts = append(opts, nen.WithPins(c.Pins...))
	} else {
		opts = append(opts, nen.WithUnpinned(c.KEM))
	}
	if c.TimeoutMs > 0 {
		opts = append(opts, nen.WithTimeout(time.Duration(c.TimeoutMs)*time.Millisecond))
	}
	if c.MaxBodyBytes > 0 {
		opts = append(opts, nen.WithMaxResponseBytes(c.MaxBodyBytes))
	}
	t, err := nen.NewTransport(&http.Transport{}, opts...)
	if err != nil {
		return failure(err, nil)
	}
	if old := d.clients[c.Name]; old != nil {
		old.t.Close()
	}
	d.clients[c.Name] = &instance{t: t, http: &http.Client{Transport: t, CheckRedirect: noRedirect}, base: strings.TrimSuffix(c.Base, "/")}
	return answer{"ok": true}
}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func (in *instance) fetch(c *command) answer {
	var body io.Reader
	switch {
	case c.Body != nil:
		b, err := base64.StdEncoding.DecodeString(*c.Body)
		if err != nil {
			return answer{"ok": false, "code": "DRIVER", "message": "body is not base64"}
		}
		body = strings.NewReader(string(b))
	case c.Text != nil:
		body = strings.NewReader(*c.Text)
	}
	req, err := http.NewRequest(c.Method, in.base+c.Path, body)
	if err != nil {
		return answer{"ok": false, "code": "NEN_BAD_INPUT", "message": err.Error()}
	}
	for k, v := range c.Headers {
		req.Header.Set(k, v)
	}
	if c.ContentType != "" {
		req.Header.Set("Content-Type", c.ContentType)
	}
	res, err := in.http.Do(req)
	if err != nil {
		return failure(err, nil)
	}
	defer res.Body.Close()
	var all []byte
	chunks := []string{}
	buf := make([]byte, 64<<10)
	for {
		n, err := res.Body.Read(buf)
		if n > 0 {
			all = append(all, buf[:n]...)
			chunks = append(chunks, base64.StdEncoding.EncodeToString(buf[:n]))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return failure(err, all)
		}
	}
	headers := map[string]string{}
	for k, v := range res.Header {
		headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	a := answer{"ok": true, "status": res.StatusCode, "headers": headers, "body": base64.StdEncoding.EncodeToString(all)}
	if c.Stream {
		a["chunks"] = chunks
	}
	return a
}

// failure is the error answer for err; partial is the plaintext a stream delivered before it.
func failure(err error, partial []byte) answer {
	a := answer{"ok": false, "code": "NETWORK", "message": err.Error()}
	var e *nen.Error
	if errors.As(err, &e) {
		a["code"] = e.Code
		if e.Status != 0 {
			a["status"] = e.Status
		}
		if e.Code == nen.CodeOutcomeUnknown && e.Cause != nil {
			if cause := nen.CodeOf(e.Cause); cause != "" {
				a["cause"] = cause
			} else {
				a["cause"] = "NETWORK"
			}
		}
	}
	if partial != nil {
		a["partial"] = base64.StdEncoding.EncodeToString(partial)
	}
	return a
}
