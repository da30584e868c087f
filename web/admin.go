package web

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/config"
)

// reloadFailed is what a caller other than loopback learns of a failed reload: the
// error quotes the modules file (and whatever a symlink made of it), which is the
// operator's to read in the log.
const reloadFailed = "reload failed; see the exporter's log for why"

// reloadRefused is the answer to a caller other than local asking for a reload.
const reloadRefused = "reloading over HTTP is served to loopback callers only (that name the exporter as localhost " +
	"or by its address): a reload drops what modules keep (sign-ins). Send SIGHUP, or start the exporter with " +
	"--web.enable-remote-reload to take it from everyone."

// ReloadHandler serves POST /-/reload. The reload ends when it is done, when its
// deadline passes (config.ReloadTimeout) or when the client leaves. The error's
// detail goes to the log, and to local callers only (see reloadFailed). With
// enabled false it answers 405, as blackbox does without --web.enable-lifecycle;
// callers other than local (LocalCaller) get 403 unless remote is set.
func ReloadHandler(reload func(context.Context) error, logger *slog.Logger, enabled, remote bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !enabled {
			http.Error(w, "reloading over HTTP is off (--web.enable-reload=false); send SIGHUP", http.StatusMethodNotAllowed)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "This endpoint requires a POST request.", http.StatusMethodNotAllowed)
			return
		}
		local := LocalCaller(r)
		if !remote && !local {
			http.Error(w, reloadRefused, http.StatusForbidden)
			return
		}
		err := reload(r.Context())
		writeWithin(w, 0) // the reload took up to config.ReloadTimeout
		if err != nil {
			logger.Error("Error reloading config", "err", collector.Printable(err.Error()))
			msg := reloadFailed
			if local {
				msg = fmt.Sprintf("failed to reload config: %s", err)
			}
			http.Error(w, msg, http.StatusInternalServerError)
			return
		}
		logger.Info("Reloaded config file")
		fmt.Fprintln(w, "Reloaded")
	})
}

// ConfigHandler serves /config: the effective config, credentials redacted,
// rendered once per loaded config.
func ConfigHandler(sc *config.SafeConfig) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		b, err := sc.Get().YAML()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(b)
	})
}

// ModulesHandler serves /modules: the table of modules in force, rendered once per
// loaded config.
func ModulesHandler(sc *config.SafeConfig) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		c := sc.Get()
		b := c.Rendered("modules", func() []byte {
			var buf bytes.Buffer
			WriteModules(&buf, c)
			return buf.Bytes()
		})
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(b)
	})
}

// PageLimit is how many answers of the pages (status page, /config, /modules,
// /logs, /metrics) are rendered at once; DefaultPageWait how long a request waits
// for a turn before it is answered 503. Each render takes up to a few MiB for a
// moment: a crowd of callers waits its turn instead of adding up. /sd has turns
// of its own (DefaultSDLimit, DefaultSDWait), held while its answer is written
// (Hold).
const (
	DefaultPageLimit = 8
	DefaultPageWait  = 5 * time.Second
	DefaultSDLimit   = 16
	DefaultSDWait    = 5 * time.Second
)

// Pages bounds the pages rendered at once (see DefaultPageLimit).
type Pages struct {
	turn chan struct{}
	wait time.Duration
}

// NewPages allows limit renders at once; a request waits up to wait for a turn.
func NewPages(limit int, wait time.Duration) *Pages {
	return &Pages{turn: make(chan struct{}, max(limit, 1)), wait: wait}
}

// Limit wraps h: it runs when a turn is free, or answers 503 after the wait (or
// nothing when the client left). h's answer is kept and written after the turn is
// given back, within its write budget (writeBudget): a client that does not read
// holds its answer, not a turn (eight such clients took every page down).
func (p *Pages) Limit(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.take(w, r) {
			return
		}
		b := &bufferedAnswer{w: w}
		func() {
			defer p.give()
			h.ServeHTTP(b, r)
		}()
		b.writeOut()
	})
}

// Hold wraps h as Limit does, but keeps the turn until h's answer is written,
// within the write budget of the length h declares (Content-Length) before it
// writes: for /sd, whose answers are large, immutable and shared by its
// readers, so that the turns bound how many a client that does not read can keep
// alive, and for how long.
func (p *Pages) Hold(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.take(w, r) {
			return
		}
		defer p.give()
		h.ServeHTTP(&sizedWriter{ResponseWriter: w}, r)
	})
}

// take waits for a turn; false when it answered 503 or the client left.
func (p *Pages) take(w http.ResponseWriter, r *http.Request) bool {
	select {
	case p.turn <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(p.wait)
	defer t.Stop()
	select {
	case p.turn <- struct{}{}:
		return true
	case <-t.C:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "too many requests for this page at once; try again", http.StatusServiceUnavailable)
		return false
	case <-r.Context().Done():
		return false
	}
}

func (p *Pages) give() { <-p.turn }
