package testenv

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestMain makes the test binary a fake exporter or Prometheus when the tests
// start it with GSE_TESTENV_FAKE set: "serve" answers the endpoints the helpers
// ask for, "exit" exits at once.
func TestMain(m *testing.M) {
	switch os.Getenv("GSE_TESTENV_FAKE") {
	case "":
		os.Exit(m.Run())
	case "exit":
		os.Exit(3)
	}
	var addr string
	for _, a := range os.Args[1:] {
		if v, ok := strings.CutPrefix(a, "--web.listen-address="); ok {
			addr = v
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/-/ready", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ready") })
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "up 1\n") })
	ok := func(data string) string { return `{"status":"success","data":` + data + `}` }
	sample := `{"metric":{"job":"j"},"value":[1,"1"]}`
	replies := map[string]string{
		"one":    ok(`{"resultType":"vector","result":[` + sample + `]}`),
		"two":    ok(`{"resultType":"vector","result":[` + sample + `,` + sample + `]}`),
		"matrix": ok(`{"resultType":"matrix","result":[]}`),
		"nan":    ok(`{"resultType":"vector","result":[{"metric":{},"value":[1,"x"]}]}`),
		"error":  `{"status":"error","error":"bad query"}`,
		"text":   "not JSON",
	}
	mux.HandleFunc("/api/v1/query", func(w http.ResponseWriter, r *http.Request) {
		q := r.FormValue("query")
		if q == "short" { // a body cut short: the client's read fails
			w.Header().Set("Content-Length", "100")
			fmt.Fprint(w, "{")
			return
		}
		fmt.Fprint(w, replies[q])
	})
	mux.HandleFunc("/api/v1/alerts", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, ok(`{"alerts":[{"labels":{"alertname":"A"},"state":"firing"}]}`))
	})
	mux.HandleFunc("/api/v1/targets", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, ok(`{"activeTargets":[{"scrapePool":"p","scrapeUrl":"http://x/metrics","health":"up","lastError":""}]}`))
	})
	fmt.Println(http.ListenAndServe(addr, mux))
	os.Exit(1)
}

// fakeTB is a testing.TB whose Fatal and Skip end the goroutine running the
// helper under test, recording what they said, instead of the test.
type fakeTB struct {
	testing.TB
	said string
}

func (f *fakeTB) Helper()                         {}
func (f *fakeTB) Fatal(a ...any)                  { f.stop(fmt.Sprint(a...)) }
func (f *fakeTB) Fatalf(format string, a ...any)  { f.stop(fmt.Sprintf(format, a...)) }
func (f *fakeTB) Skipf(format string, a ...any)   { f.stop("skip: " + fmt.Sprintf(format, a...)) }
func (f *fakeTB) stop(said string)                { f.said = said; runtime.Goexit() }
func (f *fakeTB) Logf(format string, args ...any) { f.TB.Logf(format, args...) }

// wantFail runs f with a fakeTB and checks that it ends on a Fatal or Skip saying want.
func wantFail(t *testing.T, want string, f func(tb testing.TB)) {
	t.Helper()
	tb := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(tb)
	}()
	<-done
	if !strings.Contains(tb.said, want) {
		t.Errorf("said %q, want %q", tb.said, want)
	}
}
