package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/web"
)

// TestParkingBehindTLSAndAuth holds more probes than the exporter leaves to
// net/http, through exporter-toolkit's TLS and basic auth: those past
// web.DefaultParkAbove are parked (about one goroutine each instead of two), all
// answer, and every connection carries the next probe.
func TestParkingBehindTLSAndAuth(t *testing.T) {
	const n = 2 * web.DefaultParkAbove
	dir := t.TempDir()
	cert, key := prototest.SelfSigned(t)
	writeFile(t, filepath.Join(dir, "cert.pem"), string(cert))
	writeFile(t, filepath.Join(dir, "key.pem"), string(key))
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(cert)
	hash, err := bcrypt.GenerateFromPassword([]byte("secret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	webConfig := writeFile(t, filepath.Join(dir, "web.yml"), fmt.Sprintf("tls_server_config:\n  cert_file: %s\n  key_file: %s\nbasic_auth_users:\n  prom: %s\n",
		filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), hash))

	// A2S servers that hold every reply until open closes: the probes wait as long as
	// the test needs, however slow the machine.
	open := make(chan struct{})
	targets := make([]string, n)
	for i := range targets {
		targets[i] = prototest.UDP(t, func([]byte) [][]byte { <-open; return [][]byte{a2sInfoReply} }).String()
	}
	var opened sync.Once
	release := func() { opened.Do(func() { close(open) }) }
	t.Cleanup(release) // before the servers' own, which wait for their handlers

	// A timeout no slow machine reaches: the probes end when the servers answer.
	modules := writeFile(t, filepath.Join(dir, "modules.yml"), "modules:\n  a2s:\n    protocol: a2s\n    timeout: 60s\n")
	addr := testenv.FreeAddr(t)
	p := testenv.StartProc(t, "exporter", dir, nil, binary, "--web.listen-address="+addr, "--web.config.file="+webConfig, "--config.file="+modules, "--log.level=warn")

	// The server gives a TLS handshake readHeaderTimeout (10 s) from accept: n at
	// once on a busy machine take longer, and the last are cut (EOF). The client
	// dials a few at a time.
	dials := make(chan struct{}, 4)
	tlsDialer := &tls.Dialer{Config: &tls.Config{RootCAs: pool}}
	client := &http.Client{Transport: &http.Transport{
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			select {
			case dials <- struct{}{}:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			defer func() { <-dials }()
			return tlsDialer.DialContext(ctx, network, addr)
		},
		MaxIdleConnsPerHost: 2 * n,
	}}
	get := func(path string, timeout string, reused *atomic.Int32) (int, string, error) {
		req, _ := http.NewRequest("GET", "https://"+addr+path, nil)
		req.SetBasicAuth("prom", "secret")
		if timeout != "" {
			req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", timeout)
		}
		if reused != nil {
			req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
				if i.Reused {
					reused.Add(1)
				}
			}}))
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	testenv.WaitEvery(t, 25*time.Millisecond, 30*time.Second, "the exporter to be healthy", func() (bool, string) {
		p.FailIfExited(t)
		code, _, err := get("/-/healthy", "", nil)
		return err == nil && code == 200, fmt.Sprint(code, err)
	})
	metric := func(name string) float64 {
		_, body, err := get("/metrics", "", nil)
		m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no %s in /metrics: %v", name, err)
		}
		f, _ := strconv.ParseFloat(m[1], 64)
		return f
	}

	for round := range 2 {
		var reused atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for _, target := range targets {
			wg.Go(func() {
				code, body, err := get("/probe?module=a2s&target="+target, "60", &reused)
				if err == nil && (code != 200 || !strings.Contains(body, "probe_success 1\n") || !strings.Contains(body, `name="Parked"`)) {
					err = fmt.Errorf("status %d, body\n%s", code, body)
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", target, err)
				}
			})
		}
		if round == 0 {
			// While they wait: net/http would hold two goroutines a probe. No
			// wall-clock deadline: until open closes a probe ends only by failing
			// (its own 60 s timeout included), which ends the wait.
			for metric("gameserver_exporter_probes_in_flight") < n {
				select {
				case err := <-errs:
					t.Fatalf("a probe ended before its server answered: %v", err)
				case <-time.After(20 * time.Millisecond):
				}
			}
			g := metric("go_goroutines")
			t.Logf("%v goroutines with %d probes waiting", g, n)
			if g > 1.75*n {
				t.Errorf("%v goroutines with %d probes waiting: not parked (net/http holds 2 a probe)", g, n)
			}
			release()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		if round == 1 && reused.Load() != n {
			t.Errorf("%d of %d probes reused a connection, want all", reused.Load(), n)
		}
	}
}

// a2sInfoReply is an A2S_INFO reply of a server that wants no challenge.
var a2sInfoReply = []byte("\xFF\xFF\xFF\xFFI\x11Parked\x00de_dust2\x00cstrike\x00Counter-Strike\x00\x0A\x00\x01\x10\x00dl\x00\x001.0\x00")
