package wire

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
)

func serverAddr(t *testing.T, s *httptest.Server) netip.AddrPort {
	t.Helper()
	return netip.MustParseAddrPort(s.Listener.Addr().String())
}

func TestDoHTTP(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"srv","host":"` + r.Host + `"}`))
	})
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<html>secret admin page</html>"))
	})
	mux.HandleFunc("/auth", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) })
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/hangup", func(w http.ResponseWriter, r *http.Request) {
		c, _, _ := w.(http.Hijacker).Hijack() // the request read, then close without a word
		c.Close()
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 5000)))
	})
	mux.HandleFunc("/drip", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 100; i++ {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	plain := httptest.NewServer(mux)
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(mux)
	defer tlsSrv.Close()

	type out struct {
		Name, Host string
	}
	cases := []struct {
		name    string
		srv     *httptest.Server
		req     HTTPRequest
		want    error // nil: decodes
		wantMsg string
	}{
		{"json", plain, HTTPRequest{Path: "/json"}, nil, ""},
		{"virtual host sent, address kept", plain, HTTPRequest{Path: "/json", Host: "game.example.org"}, nil, ""},
		{"self-signed TLS accepted", tlsSrv, HTTPRequest{Path: "/json", TLS: true}, nil, ""},
		{"TLS verified against another CA", tlsSrv, HTTPRequest{Path: "/json", TLS: true, RootCAs: x509.NewCertPool()}, ErrMismatch, "certificate"},
		{"plain HTTP spoken to TLS", plain, HTTPRequest{Path: "/json", TLS: true}, ErrMalformed, "TLS"},
		{"HTML where JSON expected", plain, HTTPRequest{Path: "/html"}, ErrMalformed, "text/html"},
		{"401", plain, HTTPRequest{Path: "/auth"}, ErrServer, "authentication failed"},
		{"redirect off target", plain, HTTPRequest{Path: "/redirect"}, ErrServer, "not followed"},
		{"hangup", plain, HTTPRequest{Path: "/hangup"}, ErrTruncated, ""},
		{"body over cap", plain, HTTPRequest{Path: "/big", MaxBody: 4096}, ErrTooLarge, "4096"},
		{"drip past deadline", plain, HTTPRequest{Path: "/drip"}, ErrTimeout, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := ctxT(t, 500*time.Millisecond)
			tr := NewTrace()
			start := time.Now()
			resp, err := DoHTTP(ctx, serverAddr(t, c.srv), c.req, tr)
			var v out
			if err == nil {
				err = DecodeJSON(resp, &v)
			}
			if time.Since(start) > 2*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			if c.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if v.Name != "srv" || (c.req.Host != "" && v.Host != c.req.Host) {
					t.Errorf("got %+v", v)
				}
				if len(tr.Packets) != 2 || tr.Attempts != 1 {
					t.Errorf("trace: %d packets, %d attempts", len(tr.Packets), tr.Attempts)
				}
				return
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.wantMsg) {
				t.Fatalf("err = %v, want %v containing %q", err, c.want, c.wantMsg)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error quotes the body: %v", err)
			}
		})
	}
}

// TraceSent and TraceBody redact what the trace keeps, not what is sent or read.
func TestDoHTTPTraceRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"ip":"198.51.100.9"}`))
	}))
	defer srv.Close()
	tr := NewTrace()
	resp, err := DoHTTP(context.Background(), serverAddr(t, srv), HTTPRequest{
		Method:    http.MethodPost,
		Path:      "/signin",
		Body:      []byte("password=hunter2"),
		TraceSent: func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("hunter2"), []byte("<secret>")) },
		TraceBody: func(b []byte) []byte { return []byte("[redacted]") },
	}, tr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(resp.Body), "198.51.100.9") {
		t.Errorf("the response lost its body: %q", resp.Body)
	}
	if len(tr.Packets) == 0 || tr.Packets[0].Dir != Sent || !bytes.HasSuffix(tr.Packets[0].Data, []byte("password=<secret>")) {
		t.Fatalf("trace %+v", tr.Packets)
	}
	for _, p := range tr.Packets {
		if strings.Contains(string(p.Data), "198.51.100.9") || strings.Contains(string(p.Data), "hunter2") {
			t.Errorf("trace kept the body or the secret: %q", p.Data)
		}
	}
}

// LiteralPath sends a "|" as it is, where url.URL would send "%7C".
func TestDoHTTPLiteralPath(t *testing.T) {
	got := make(chan string, 2)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.RequestURI
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer s.Close()
	ctx := ctxT(t, 5*time.Second)
	for _, tc := range []struct {
		literal bool
		want    string
	}{{true, "/JSON|123?x=1"}, {false, "/JSON%7C123?x=1"}} {
		tr := NewTrace()
		if _, err := DoHTTP(ctx, serverAddr(t, s), HTTPRequest{Path: "/JSON|123?x=1", LiteralPath: tc.literal}, tr); err != nil {
			t.Fatal(err)
		}
		if uri := <-got; uri != tc.want {
			t.Errorf("literal %v: the server got %q, want %q", tc.literal, uri, tc.want)
		}
		if !strings.Contains(string(tr.Packets[0].Data), tc.want) {
			t.Errorf("trace %q", tr.Packets[0].Data)
		}
	}
}

// SecretQuery keeps the query string out of the trace and out of errors.
func TestDoHTTPSecretQuery(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("code") != "s3cret" {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		w.Write([]byte("<ok/>"))
	}))
	ctx := ctxT(t, 5*time.Second)
	tr := NewTrace()
	req := HTTPRequest{Path: "/feed"}
	req.AddSecretQuery(url.Values{"code": {"s3cret"}})
	resp, err := DoHTTP(ctx, serverAddr(t, s), req, tr)
	if err != nil || resp.Status != http.StatusOK {
		t.Fatalf("%v %+v", err, resp)
	}
	if got := string(tr.Packets[0].Data); strings.Contains(got, "s3cret") || !strings.HasPrefix(got, "GET /feed?<secret> ") {
		t.Errorf("trace %q", got)
	}
	addr := serverAddr(t, s)
	s.Close()
	_, err = DoHTTP(ctx, addr, req, NewTrace())
	if !errors.Is(err, ErrRefused) || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("closed port: %v", err)
	}
	abs := HTTPRequest{URL: "http://x/l?p=1"}
	if abs.AddSecretQuery(url.Values{"t": {"k"}}); abs.URL != "http://x/l?p=1&t=k" || !abs.SecretQuery {
		t.Errorf("a URL's query: %+v", abs)
	}
}
