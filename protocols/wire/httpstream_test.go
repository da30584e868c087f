package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestOpenHTTP(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/list", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("[1,2,3]")) })
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat(" ", 4096))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("12345678")) })
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/", http.StatusFound)
	})
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("[1,"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cases := []struct {
		path    string
		max     int
		want    string
		wantErr error
	}{
		{"/list", 0, "[1,2,3]", nil},
		{"/exact", 8, "12345678", nil},
		{"/endless", 1 << 16, "", ErrTooLarge},
		{"/exact", 7, "", ErrTooLarge},
		{"/stall", 0, "", ErrTimeout},
		{"/redirect", 0, "", ErrServer}, // from OpenHTTP itself
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			ctx := ctxT(t, 500*time.Millisecond)
			tr := NewTrace()
			var b []byte
			s, err := OpenHTTP(ctx, HTTPRequest{URL: srv.URL + c.path, MaxBody: c.max}, tr)
			if err == nil {
				defer s.Close()
				b, err = io.ReadAll(s.Body)
			}
			if !errors.Is(err, c.wantErr) || c.wantErr == nil && err != nil {
				t.Fatalf("err %v, want %v", err, c.wantErr)
			}
			if c.wantErr == nil && string(b) != c.want {
				t.Fatalf("body %q, want %q", b, c.want)
			}
		})
	}
	if _, err := OpenHTTP(context.Background(), HTTPRequest{Path: "/list"}, nil); !errors.Is(err, ErrMalformed) {
		t.Fatalf("no URL: %v", err)
	}
}
