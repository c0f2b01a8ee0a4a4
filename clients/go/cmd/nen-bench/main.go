// Command nen-bench measures the Go client's CPU per request (process CPU time, user + system,
// not wall time) against Go's plain net/http client in one run: 1 KB and 100 KB echo on one warm
// session (the Hono target's sealed /api/echo vs its plain /api/plain/echo), and a handshake.
// Modes are interleaved round by round and the median round is reported, with the ratios and
// the CPU Nen adds per request.
//
//	go run ./cmd/nen-bench                      # starts bench/targets/hono.mjs on 127.0.0.1
//	go run ./cmd/nen-bench -target http://127.0.0.1:3100 -pin k1:...
//
// Pitfalls: the server runs in another process, so this process's CPU is the client's alone
// (Go's HTTP stack included, on both sides of the comparison); requests are sequential (one
// connection) so that the figure is per request, not per core; the target is 127.0.0.1 only
// and the run is bounded in count.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"syscall"
	"time"

	nen "github.com/nen-dev/nen/clients/go"
)

const testKeys = "k1:AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA" // the kit's test-only key k1

type mode struct {
	name string
	run  func(ctx context.Context) error
}

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	target := flag.String("target", "", "a running Hono target (default: start bench/targets/hono.mjs with the test key)")
	pin := flag.String("pin", "", "the target's pin (default: the test key's)")
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	n1 := flag.Int("n", 2000, "1 KB requests per mode and round (100 KB: n/8, handshakes: n/20)")
	procs := flag.Int("procs", 1, "GOMAXPROCS (1 by default: idle Ps spin while a request waits on the network, which charges\n"+
		"CPU in proportion to the server's latency to whichever client waits longer; 0 keeps Go's default)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *procs > 0 {
		runtime.GOMAXPROCS(*procs)
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if *target == "" {
		url, stop, err := startTarget()
		if err != nil {
			fmt.Fprintln(os.Stderr, "nen-bench:", err)
			os.Exit(1)
		}
		defer stop()
		*target = url
	}
	if *pin == "" {
		p, err := pinOf(*target)
		if err != nil {
			fmt.Fprintln(os.Stderr, "nen-bench:", err)
			os.Exit(1)
		}
		*pin = p
	}
	if err := run(*target, *pin, *rounds, *n1); err != nil {
		fmt.Fprintln(os.Stderr, "nen-bench:", err)
		os.Exit(1)
	}
}

func run(target, pin string, rounds, n1 int) error {
	plain := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	tr, err := nen.NewTransport(&http.Transport{MaxIdleConnsPerHost: 4}, nen.WithPins(pin), nen.WithBaseURL(target))
	if err != nil {
		return err
	}
	sealed := &http.Client{Transport: tr}
	hsTr, err := nen.NewTransport(&http.Transport{MaxIdleConnsPerHost: 4}, nen.WithPins(pin), nen.WithBaseURL(target))
	if err != nil {
		return err
	}
	kb, hundred := bytes.Repeat([]byte("a"), 1024), bytes.Repeat([]byte("b"), 100<<10)
	post := func(c *http.Client, path string, body []byte) func(context.Context) error {
		return func(ctx context.Context) error { return echo(ctx, c, target+path, body) }
	}
	groups := []struct {
		label string
		n     int
		modes [2]mode
	}{
		{"1 KB echo", n1, [2]mode{{"plain", post(plain, "/api/plain/echo", kb)}, {"nen", post(sealed, "/api/echo", kb)}}},
		{"100 KB echo", max(n1/8, 1), [2]mode{{"plain", post(plain, "/api/plain/echo", hundred)}, {"nen", post(sealed, "/api/echo", hundred)}}},
		{"handshake", max(n1/20, 1), [2]mode{{"plain 1 KB", post(plain, "/api/plain/echo", kb)}, {"nen handshake", func(ctx context.Context) error {
			_, err := hsTr.Handshake(ctx)
			return err
		}}}},
	}
	ctx := context.Background()
	samples := make([][2][]float64, len(groups))
	for g := range groups { // warm-up: connections, the session, code paths
		for _, m := range groups[g].modes {
			for i := 0; i < 20; i++ {
				if err := m.run(ctx); err != nil {
					return fmt.Errorf("%s %s: %w", groups[g].label, m.name, err)
				}
			}
		}
	}
	for r := 0; r < rounds; r++ {
		for g, grp := range groups {
			for k, m := range grp.modes {
				c0 := cpu()
				for i := 0; i < grp.n; i++ {
					if err := m.run(ctx); err != nil {
						return fmt.Errorf("%s %s: %w", grp.label, m.name, err)
					}
				}
				samples[g][k] = append(samples[g][k], float64(cpu()-c0)/float64(grp.n)/1e3)
			}
		}
	}
	fmt.Printf("Go client CPU per request (process CPU, median of %d interleaved rounds, GOMAXPROCS %d; %s)\n", rounds, runtime.GOMAXPROCS(0), target)
	fmt.Printf("%-12s %-14s %12s %-14s %12s %8s %12s\n", "case", "baseline", "us/req", "nen", "us/req", "ratio", "added us")
	for g, grp := range groups {
		a, b := median(samples[g][0]), median(samples[g][1])
		fmt.Printf("%-12s %-14s %12.1f %-14s %12.1f %7.2fx %12.1f\n", grp.label, grp.modes[0].name, a, grp.modes[1].name, b, b/a, b-a)
	}
	return nil
}

func echo(ctx context.Context, c *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err == nil && (res.StatusCode != 200 || n != int64(len(body))) {
		err = fmt.Errorf("echo: status %d, %d bytes", res.StatusCode, n)
	}
	return err
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// startTarget starts bench/targets/hono.mjs (found from this module's folder) on a free port.
func startTarget() (string, func(), error) {
	root, err := repoRoot()
	if err != nil {
		return "", nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", filepath.Join(root, "bench", "targets", "hono.mjs"), "--port", fmt.Sprint(port))
	cmd.Env = append(os.Environ(), "NEN_SERVER_KEYS="+testKeys, "NEN_LOG=silent", "NEN_HANDSHAKE_RATE=0", "NEN_HANDSHAKES_PER_SECOND=0")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	}
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(url + "/api/nen/keys"); err == nil {
			res.Body.Close()
			return url, stop, nil
		}
	}
	stop()
	return "", nil, fmt.Errorf("the Hono target did not start within 30 s")
}

// repoRoot is the repository root: the nearest parent holding bench/targets/hono.mjs.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "bench", "targets", "hono.mjs")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("bench/targets/hono.mjs not found above %s: pass -target", dir)
		}
	}
}

// pinOf reads the first pin of the target's keys route (our own local test server: a pin taken
// from the same channel authenticates nothing beyond it, fine for a benchmark, never in an app).
func pinOf(target string) (string, error) {
	res, err := http.Get(target + "/api/nen/keys")
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var v struct{ Keys []struct{ Pin string } }
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || len(v.Keys) == 0 {
		return "", fmt.Errorf("no pin from %s/api/nen/keys", target)
	}
	return v.Keys[0].Pin, nil
}
