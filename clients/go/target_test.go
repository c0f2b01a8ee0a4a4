// The request target (./target.go): PROTOCOL.md §5.3's table, dot segments, a fuzzed
// idempotence check of the canonical query.

package nen

import (
	"net/url"
	"testing"
	"unicode/utf8"
)

func TestCanonicalTarget(t *testing.T) {
	cases := []struct{ sent, want string }{ // PROTOCOL.md §5.3's table
		{"/n?q=~", "/n?q=%7E"}, {"/n?q=%7e", "/n?q=%7E"}, {"/n?q=a+b", "/n?q=a+b"}, {"/n?q=a%20b", "/n?q=a+b"},
		{"/n?q=a%2Bb", "/n?q=a%2Bb"}, {"/n?q=a&b", "/n?q=a&b="}, {"/n?q=%c3%a9", "/n?q=%C3%A9"},
		{"/n?q=%FF", "/n?q=%EF%BF%BD"}, {"/n?q=%C3", "/n?q=%EF%BF%BD"}, {"/n?q=%zz&r=%", "/n?q=%25zz&r=%25"},
		{"/n?q=", "/n?q="}, {"/n?=x", "/n?=x"}, {"/n?a=1&&b=2&", "/n?a=1&b=2"}, {"/n?", "/n"}, {"/n?&&", "/n"},
		{"/n??a=1", "/n?a=1"}, {"/n?a=b=c", "/n?a=b%3Dc"}, {"/n?q=!'()~", "/n?q=%21%27%28%29%7E"}, {"/a%7e/~?x", "/a%7e/~?x="},
		{"/n?q=%E2%82", "/n?q=%EF%BF%BD"}, {"/n?q=%ED%A0%80", "/n?q=%EF%BF%BD%EF%BF%BD%EF%BF%BD"}, {"/n?q=%F0%9F%98%80", "/n?q=%F0%9F%98%80"},
	}
	for _, c := range cases {
		u, err := url.Parse("https://x" + c.sent)
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalTarget(preparePath(u), u.RawQuery); got != c.want {
			t.Errorf("%s: got %s, want %s", c.sent, got, c.want)
		}
	}
}

func TestPreparePath(t *testing.T) {
	cases := map[string]string{
		"/api/x/../y/./z": "/api/y/z", "/api/x/%2e%2E/y/%2E/z": "/api/y/z", "/a/..": "/", "/a/.": "/a/", "": "/",
		"/api/~/%7e/%7E": "/api/~/%7e/%7E", "/a.b/..c": "/a.b/..c",
	}
	for in, want := range cases {
		u := &url.URL{Scheme: "https", Host: "x"}
		u, _ = u.Parse(in)
		if in == "" {
			u = &url.URL{Scheme: "https", Host: "x"}
		}
		if got := preparePath(u); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func FuzzCanonicalQuery(f *testing.F) {
	for _, s := range []string{"a=1&b=2", "q=%zz&r=%", "%C3", "a+b=c d", "??x", "&&", "%E2%82%AC=%ED%A0%80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		c := canonicalQuery(q)
		if again := canonicalQuery(c); again != c {
			t.Fatalf("not idempotent: %q -> %q -> %q", q, c, again)
		}
		if canonicalQuery(wireQuery(q)) != c {
			t.Fatalf("wireQuery changed the canonical form of %q", q)
		}
		if !utf8.Valid(repairUTF8([]byte(q))) {
			t.Fatalf("repairUTF8(%q) is not UTF-8", q)
		}
	})
}
