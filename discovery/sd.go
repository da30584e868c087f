package discovery

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
)

// maxLabel caps a label value taken from a list (bytes, cut at a rune).
const maxLabel = 128

// clean makes a list's string a fit label value: valid UTF-8, no control
// characters, trimmed, at most maxLabel bytes.
func clean(s string) string {
	ok := len(s) <= maxLabel && utf8.ValidString(s)
	for i := 0; ok && i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			ok = false
		}
	}
	if ok && strings.TrimSpace(s) == s {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if unicode.IsControl(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > maxLabel {
			break
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// appendString appends s as a JSON string. s is valid UTF-8 without control
// characters (clean), or a name or address of our own.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '"' && c != '\\' && c >= 0x20 && c != '<' && c != '>' && c != '&' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		default: // control characters (not after clean) and HTML's, as encoding/json does
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendLabel(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',')
	b = appendString(b, name)
	b = append(b, ':')
	return appendString(b, value)
}

// appendGroup appends one server's target group: its address and labels.
func appendGroup(b []byte, source, module string, e *master.Entry) []byte {
	b = append(b, `{"targets":[`...)
	if e.Host != "" {
		b = appendString(b, e.Host)
	} else {
		b = append(b, '"')
		b = e.Addr.AppendTo(b)
		b = append(b, '"')
	}
	b = append(b, `],"labels":{"source":`...)
	b = appendString(b, source)
	b = appendLabel(b, "__param_module", module)
	b = appendLabel(b, "__meta_gameserver_name", e.Name)
	b = appendLabel(b, "__meta_gameserver_map", e.Map)
	b = appendLabel(b, "__meta_gameserver_game", e.Game)
	b = appendLabel(b, "__meta_gameserver_version", e.Version)
	b = appendLabel(b, "__meta_gameserver_country", e.Country)
	if e.Players.Known {
		b = appendLabel(b, "__meta_gameserver_players", strconv.FormatInt(e.Players.Value, 10))
	}
	if e.Max.Known {
		b = appendLabel(b, "__meta_gameserver_players_max", strconv.FormatInt(e.Max.Value, 10))
	}
	if e.Password != protocols.FlagUnknown {
		b = appendLabel(b, "__meta_gameserver_password", strconv.FormatBool(e.Password == protocols.FlagTrue))
	}
	return append(b, "}}"...)
}

// sdBody is a snapshot's /sd answer, encoded on its first request and shared by
// every later one: a client that reads slowly, or never, holds these immutable
// bytes (until its write deadline), not the snapshot's entries and indexes, and
// a crowd of readers of one refresh holds one copy.
type sdBody struct {
	once sync.Once
	b    []byte
}

// body returns sn's answer as Prometheus HTTP SD JSON.
func (sn *snapshot) body(source, module string) []byte {
	sn.sd.once.Do(func() { sn.sd.b = encodeSD(source, module, sn) })
	return sn.sd.b
}

// encodeSD encodes sn's targets as Prometheus HTTP SD JSON: one target group
// per server, so that each carries its own __meta labels.
func encodeSD(source, module string, sn *snapshot) []byte {
	var b []byte
	b = append(b, '[')
	for n, i := range sn.targets {
		if n > 0 {
			b = append(b, ',')
		}
		b = appendGroup(b, source, module, &sn.entries[i])
	}
	return append(b, ']', '\n')
}

// known lists the sources' names for messages.
func (m *Manager) known() string {
	if names := m.Names(); len(names) > 0 {
		return strings.Join(names, ", ")
	}
	return "none: the modules file has no discovery section"
}

// SDHandler serves GET /sd?source=NAME: the source's targets in Prometheus'
// HTTP SD format. An unknown source is 404 naming the known ones (a built-in
// list's name, 404 saying how to define it: /sd starts no fetch); a source
// without a good list yet is 503, so Prometheus keeps the targets it has
// rather than dropping them.
func (m *Manager) SDHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "GET only", http.StatusMethodNotAllowed)
			return
		}
		q := r.URL.Query()
		for k := range q {
			if k != "source" {
				// Only the operator's sources: no parameter may name a list.
				http.Error(w, "unknown parameter "+strconv.Quote(k)+": /sd takes source=NAME only", http.StatusBadRequest)
				return
			}
		}
		name := q.Get("source")
		if name == "" {
			http.Error(w, "source parameter is missing: /sd?source=NAME, NAME one of the modules file's discovery sources ("+m.known()+")", http.StatusBadRequest)
			return
		}
		src := m.source(name)
		if _, builtin := master.LookupPreset(name); src == nil && builtin {
			// A built-in list runs only while probes read it: /sd, polled
			// for ever, would keep it running; the operator defines it.
			http.Error(w, "source "+strconv.Quote(name)+" is a built-in list that list-lookup modules start on demand; /sd serves the modules file's sources: "+
				"define it there (discovery: {"+name+": {preset: "+name+"}}) to serve its targets", http.StatusNotFound)
			return
		}
		if src == nil {
			http.Error(w, "unknown source "+strconv.Quote(name)+" (known: "+m.known()+")", http.StatusNotFound)
			return
		}
		sn := src.list.Load()
		if sn == nil {
			w.Header().Set("Retry-After", "10")
			msg := "source " + strconv.Quote(name) + " has no list yet"
			if st := src.status(); st.LastError != "" {
				msg += ": " + st.LastError
			}
			http.Error(w, msg, http.StatusServiceUnavailable)
			return
		}
		b := sn.body(name, src.src.Module)
		w.Header().Set("Content-Type", "application/json")
		// The length, and one write: the web layer sizes the write deadline from it.
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(b)
	})
}
