package master

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// nth is the n-th address of a fake list: 10.a.b.c:27015, distinct for n < 2^24.
func nth(n int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(n >> 16), byte(n >> 8), byte(n)}), 27015)
}

// index is nth's inverse; -1 for the seed 0.0.0.0:0.
func index(a netip.AddrPort) int {
	b := a.Addr().As4()
	if b[0] != 10 {
		return -1
	}
	return int(b[1])<<16 | int(b[2])<<8 | int(b[3])
}

func put4(b []byte, a netip.AddrPort) []byte {
	ip := a.Addr().As4()
	return append(append(b, ip[:]...), byte(a.Port()>>8), byte(a.Port()))
}

// steamMaster is a fake Steam master listing n servers, perPage a page, seen
// counting the requests; page may rewrite a page (lies).
func steamMaster(t *testing.T, n, perPage int, seen *atomic.Int32, page func(seed int, b []byte) []byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) < 3 || req[0] != 0x31 {
			return nil
		}
		if seen != nil {
			seen.Add(1)
		}
		seedText, _, _ := strings.Cut(string(req[2:]), "\x00")
		seed, err := netip.ParseAddrPort(seedText)
		if err != nil {
			return nil
		}
		from := index(seed) + 1
		b := append([]byte(nil), steamHeader...)
		i := from
		for ; i < n && i < from+perPage; i++ {
			b = put4(b, nth(i))
		}
		if i == n {
			b = append(b, 0, 0, 0, 0, 0, 0)
		}
		if page != nil {
			b = page(from, b)
		}
		return [][]byte{b}
	})
}

// lister is New(s), failing t on an error.
func lister(t *testing.T, s Source) Lister {
	t.Helper()
	l, err := New(s)
	prototest.NoError(t, err)
	return l
}

func list(t *testing.T, s Source, d time.Duration) (*List, error) {
	t.Helper()
	return lister(t, s).List(prototest.Context(t, d), wire.NewTrace())
}

func checkList(t *testing.T, got *List, n int, capped bool) {
	t.Helper()
	if len(got.Entries) != n || got.Capped != capped {
		t.Fatalf("%d entries capped %v, want %d capped %v", len(got.Entries), got.Capped, n, capped)
	}
	for i, e := range got.Entries {
		if e.Addr != nth(i) {
			t.Fatalf("entry %d is %v, want %v", i, e.Addr, nth(i))
		}
	}
}

func TestSteamPaging(t *testing.T) {
	for _, c := range []struct {
		servers, max, want, requests int
	}{
		{500, 0, 500, 3},         // 3 pages of 231
		{1000000, 1000, 1000, 5}, // 1000 of a million at 231 a page: capped
	} {
		var requests atomic.Int32
		addr := steamMaster(t, c.servers, 231, &requests, nil)
		got, err := list(t, Source{Type: TypeSteam, Address: addr.String(), Query: `\appid\440`, MaxEntries: c.max}, 5*time.Second)
		prototest.NoError(t, err)
		checkList(t, got, c.want, c.max != 0)
		if r := requests.Load(); r != int32(c.requests) {
			t.Fatalf("%d requests, want %d", r, c.requests)
		}
	}
}

func TestSteamLies(t *testing.T) {
	cases := []struct {
		name string
		page func(seed int, b []byte) []byte
		want error
	}{
		{"page repeats itself", func(seed int, b []byte) []byte {
			return put4(append([]byte(nil), steamHeader...), nth(0))
		}, wire.ErrMalformed},
		{"empty page without the end", func(seed int, b []byte) []byte { return append([]byte(nil), steamHeader...) }, wire.ErrMalformed},
		{"cut page", func(seed int, b []byte) []byte { return b[:len(b)-2] }, wire.ErrTruncated},
		// The deadline passes after strays: the error says what was skipped.
		{"only strays", func(seed int, b []byte) []byte { return []byte("\xff\xff\xff\xffI garbage") }, wire.ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			addr := steamMaster(t, 500, 100, nil, c.page)
			_, err := list(t, Source{Type: TypeSteam, Address: addr.String()}, 500*time.Millisecond)
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}

// quake3Master is a fake dpmaster that answers a getservers query (ext: the
// Ext one) with n servers, perDatagram a datagram, the last one ending in EOT
// unless noEOT; v6 lists every other server by an IPv6 address.
func quake3Master(t *testing.T, n, perDatagram int, ext, noEOT bool) netip.AddrPort {
	header := "\xff\xff\xff\xffgetserversResponse"
	want := "\xff\xff\xff\xffgetservers "
	if ext {
		header = "\xff\xff\xff\xffgetserversExtResponse"
		want = "\xff\xff\xff\xffgetserversExt "
	}
	// Built once, before the test measures anything.
	var out [][]byte
	for i := 0; i < n; {
		b := []byte(header)
		for j := 0; j < perDatagram && i < n; i, j = i+1, j+1 {
			if ext && i%2 == 1 {
				a := nth(i).Addr().As4()
				v6 := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 12: a[0], 13: a[1], 14: a[2], 15: a[3]})
				ip := v6.As16()
				b = append(append(append(b, '/'), ip[:]...), byte(27015>>8), byte(27015&0xff))
				continue
			}
			b = put4(append(b, '\\'), nth(i))
		}
		out = append(out, b)
	}
	if !noEOT {
		if len(out) == 0 {
			out = [][]byte{[]byte(header)}
		}
		out[len(out)-1] = append(out[len(out)-1], "\\EOT\x00\x00\x00"...)
	}
	return prototest.UDP(t, func(req []byte) [][]byte {
		if !strings.HasPrefix(string(req), want) {
			return nil
		}
		return out
	})
}

func TestQuake3(t *testing.T) {
	for _, c := range []struct {
		n, per int
		ext    bool
		query  string
	}{
		{700, 200, false, "getservers 71 full empty"},
		{0, 200, false, ""},
		// every other server by an IPv6 address
		{10, 4, true, "getserversExt OpenArena 71 ipv4 ipv6"},
	} {
		addr := quake3Master(t, c.n, c.per, c.ext, false)
		got, err := list(t, Source{Type: TypeQuake3, Address: addr.String(), Query: c.query}, 5*time.Second)
		prototest.NoError(t, err)
		if !c.ext {
			checkList(t, got, c.n, false)
		} else if len(got.Entries) != 10 || got.Entries[1].Addr.String() != "[2001:db8::a00:1]:27015" || got.Entries[2].Addr != nth(2) {
			t.Fatalf("%v, want every other entry IPv6", got.Entries)
		}
	}
}

// TestQuake3NoEOT: a list that never ends is no list (some datagrams may have
// been lost on the way), and the error says so.
func TestQuake3NoEOT(t *testing.T) {
	addr := quake3Master(t, 300, 200, false, true)
	start := time.Now()
	_, err := list(t, Source{Type: TypeQuake3, Address: addr.String()}, 300*time.Millisecond)
	if !errors.Is(err, wire.ErrTimeout) || !strings.Contains(err.Error(), "incomplete after 2 datagrams") {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 2*time.Second+prototest.LagSince(start) {
		t.Fatalf("returned after %v", time.Since(start))
	}
}

func TestQuake3Truncated(t *testing.T) {
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		return [][]byte{prototest.VecFile(t, "quake3_cut")}
	})
	_, err := list(t, Source{Type: TypeQuake3, Address: addr.String()}, time.Second)
	if !errors.Is(err, wire.ErrTruncated) {
		t.Fatalf("err %v", err)
	}
}

// TestQuake3Million: a master that sends a million entries is read up to the
// cap and left; what the list holds is bounded by the cap, not by the master.
func TestQuake3Million(t *testing.T) {
	addr := quake3Master(t, 1000000, 230, false, false)
	// 20,000 entries of about 170 bytes, and the fake's datagrams (about 6 MB,
	// built per request) allocated meanwhile.
	bounded(t, 20000, 8<<20, 48<<20, func() (*List, error) {
		return list(t, Source{Type: TypeQuake3, Address: addr.String(), MaxEntries: 20000}, 10*time.Second)
	})
}

// bounded fetches a list capped at n entries, which must hold at most held
// bytes of heap, the fetch allocating at most alloc.
func bounded(t *testing.T, n int, held int64, alloc uint64, fetch func() (*List, error)) {
	t.Helper()
	before := prototest.HeapAfterGC()
	var got *List
	var err error
	total := allocated(func() { got, err = fetch() })
	prototest.NoError(t, err)
	checkList(t, got, n, true)
	if h := int64(prototest.HeapAfterGC()) - int64(before); h > held {
		t.Fatalf("the list holds %d MiB", h>>20)
	}
	if total > alloc {
		t.Fatalf("fetching allocated %d MiB", total>>20)
	}
	runtime.KeepAlive(got)
}

func TestQuakeWorld(t *testing.T) {
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if string(req) != "c\n" {
			return nil
		}
		return [][]byte{[]byte("\xff\xff\xff\xffn\\stray"), prototest.VecFile(t, "quakeworld")}
	})
	got, err := list(t, Source{Type: TypeQuakeWorld, Address: addr.String()}, 2*time.Second)
	prototest.NoError(t, err)
	if len(got.Entries) != 2 || got.Entries[1].Addr.String() != "198.51.100.7:28001" {
		t.Fatalf("%+v", got.Entries)
	}
}

// TestUDPContract: silence is a timeout by the deadline, a closed port is
// refused, a request lost once is re-sent, for every UDP type.
func TestUDPContract(t *testing.T) {
	for _, typ := range []string{TypeSteam, TypeQuake3, TypeQuakeWorld} {
		t.Run(typ, func(t *testing.T) {
			start := time.Now()
			_, err := list(t, Source{Type: typ, Address: prototest.Silent(t).String()}, 300*time.Millisecond)
			if !errors.Is(err, wire.ErrTimeout) {
				t.Fatalf("silence: %v", err)
			}
			if time.Since(start) > 2*time.Second+prototest.LagSince(start) {
				t.Fatalf("silence returned after %v", time.Since(start))
			}
			if _, err := list(t, Source{Type: typ, Address: prototest.ClosedUDPPort(t).String()}, 2*time.Second); !errors.Is(err, wire.ErrRefused) {
				t.Fatalf("closed port: %v", err)
			}
			var n atomic.Int32
			one := map[string][]byte{
				TypeSteam:      append(append([]byte(nil), steamHeader...), 10, 0, 0, 1, 0x69, 0x87, 0, 0, 0, 0, 0, 0),
				TypeQuake3:     []byte("\xff\xff\xff\xffgetserversResponse\\\x0a\x00\x00\x01\x69\x87\\EOT\x00\x00\x00"),
				TypeQuakeWorld: []byte("\xff\xff\xff\xffd\n\x0a\x00\x00\x01\x69\x87"),
			}[typ]
			flaky := prototest.UDP(t, func([]byte) [][]byte {
				if n.Add(1) == 1 {
					return nil // the first request is lost
				}
				return [][]byte{one}
			})
			got, err := list(t, Source{Type: typ, Address: flaky.String()}, 3*time.Second)
			if err != nil || len(got.Entries) != 1 || n.Load() != 2 {
				t.Fatalf("retry: %+v, %v after %d requests", got, err, n.Load())
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			l, _ := New(Source{Type: typ, Address: prototest.Silent(t).String()})
			if _, err := l.List(ctx, nil); !errors.Is(err, wire.ErrTimeout) {
				t.Fatalf("cancelled: %v", err)
			}
		})
	}
}

// ddnetBody writes a servers.json of n servers, entry by entry, and counts
// the bytes it wrote.
func ddnetBody(n int, wrote *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var buf bytes.Buffer
		buf.WriteString(`{"servers":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			fmt.Fprintf(&buf, `{"addresses":["tw-0.6+udp://%s"],"location":"eu:de","info":{"name":"server %d","map":{"name":"dm1"},"max_clients":16,"clients":[{"name":"a"}]}}`, nth(i), i)
			if buf.Len() > 32<<10 {
				k, err := w.Write(buf.Bytes())
				wrote.Add(int64(k))
				if err != nil {
					return
				}
				buf.Reset()
			}
		}
		buf.WriteString(`]}`)
		k, _ := w.Write(buf.Bytes())
		wrote.Add(int64(k))
	}
}

// TestDDNetMillion: a million-server body is read only up to the cap, and the
// fetch allocates in proportion to the cap, not to the body (what an entry
// holds: TestDecodeDDNet).
func TestDDNetMillion(t *testing.T) {
	var wrote atomic.Int64
	srv, _ := prototest.HTTP(t, ddnetBody(1000000, &wrote), false)
	bounded(t, 10000, 8<<20, 64<<20, func() (*List, error) {
		return list(t, Source{Type: TypeDDNet, URL: srv.URL, MaxEntries: 10000}, 20*time.Second)
	})
	if w := wrote.Load(); w > 50<<20 {
		t.Fatalf("the server wrote %d MiB: the body was read on past the cap", w>>20)
	}
}

// endless writes prefix, then fill until the client leaves.
func endless(prefix string, fill byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(prefix))
		for chunk := bytes.Repeat([]byte{fill}, 8192); r.Context().Err() == nil; {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
}

// loginPage is HTML where a list should be.
func loginPage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	w.Write([]byte("<html>login</html>"))
}

func TestHTTPListFailures(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/endless", endless(`{"servers":[`, ' '))
	mux.HandleFunc("/endless-string", endless(`{"servers":[{"addresses":["`, 'a'))
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"servers":[`))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	mux.HandleFunc("/html", loginPage)
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/", http.StatusFound)
	})
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(`{"servers":[{"addresses":["tw-0.6+udp://192.0.2.1:8303"]},`))
	})
	srv, _ := prototest.HTTP(t, mux, false)
	cases := []struct {
		path string
		want error
	}{
		{"/endless", wire.ErrTooLarge},
		{"/endless-string", wire.ErrTooLarge},
		{"/stall", wire.ErrTimeout},
		{"/html", wire.ErrMalformed},
		{"/500", wire.ErrServer},
		{"/redirect", wire.ErrServer},
		{"/cut", wire.ErrTruncated},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			before := prototest.HeapAfterGC()
			_, err := list(t, Source{Type: TypeDDNet, URL: srv.URL + c.path, MaxBody: 4 << 20}, 2*time.Second)
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if held := int64(prototest.HeapAfterGC()) - int64(before); held > 2<<20 {
				t.Fatalf("%d MiB held after a failed fetch", held>>20)
			}
		})
	}
}

func TestHTTPJSONTLS(t *testing.T) {
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(prototest.File(t, "httpjson_flat.json"))
	}), true)
	fields := Fields{Address: "ip", Port: "port", Name: "hostname"}
	// The test server's certificate is no public one: refused by default.
	if _, err := list(t, Source{Type: TypeHTTPJSON, URL: srv.URL, Fields: fields}, 2*time.Second); !errors.Is(err, wire.ErrMismatch) {
		t.Fatalf("unverified certificate: %v", err)
	}
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	got, err := list(t, Source{Type: TypeHTTPJSON, URL: srv.URL, Fields: fields, RootCAs: pool}, 2*time.Second)
	if err != nil || len(got.Entries) != 3 {
		t.Fatalf("%+v, %v", got, err)
	}
}

// TestNewRejects: sources are checked when the lister is built.
func TestNewRejects(t *testing.T) {
	good, empty := keyFile(t, panelKey), writeFile(t, "")
	refused(t, []refusal{
		{Source{}, "type is required"},
		{Source{Type: "gamespy"}, `unknown type "gamespy"`},
		{Source{Type: TypeSteam, Query: "appid 440"}, "starts with a backslash"},
		{Source{Type: TypeSteam, Region: "mars"}, `region "mars" unknown`},
		{Source{Type: TypeQuake3, Region: "europe"}, "region is for type steam only"},
		{Source{Type: TypeSteam, URL: "http://x/"}, "takes an address, not a url"},
		{Source{Type: TypeQuake3, Query: "getstatus"}, "want `getservers"},
		{Source{Type: TypeQuake3, Address: "nohostport"}, "address"},
		{Source{Type: TypeQuake3, Query: "getservers 68\nfull"}, "printable ASCII"},
		{Source{Type: TypeQuakeWorld, Query: "x"}, "takes no query"},
		{Source{Type: TypeDDNet, Address: "127.0.0.1:1"}, "takes a url"},
		{Source{Type: TypeHTTPJSON, URL: "http://127.0.0.1/"}, "address is required"},
		{Source{Type: TypeHTTPJSON, Fields: Fields{Address: "ip"}}, "needs a url"},
		{Source{Type: TypeHTTPJSON, URL: "file:///etc/passwd", Fields: Fields{Address: "ip"}}, "absolute http or https"},
		{Source{Type: TypeHTTPJSON, URL: "http://u:p@example.org/", Fields: Fields{Address: "ip"}}, "credentials"},
		{Source{Type: TypeHTTPJSON, URL: "http://127.0.0.1/", Fields: Fields{Address: "a..b"}}, "dot-separated"},
		{Source{Type: TypeQuake3, MaxEntries: MaxEntries + 1}, "out of range"},
		{Source{Type: TypeFile}, "needs a path"},
		{Source{Type: TypeFile, Path: "x", URL: "http://127.0.0.1/"}, "takes a path"},
		{Source{Type: TypeFile, Path: "x", Query: "q"}, "takes no query"},
		{Source{Type: TypeFile, Path: "x", Fields: Fields{Address: "ip"}}, "fields are for type http_json"},
		{Source{Type: TypeQuake3, Path: "x"}, "path is for type file only"},
		{Source{Type: TypeHTTPJSON, URL: "http://127.0.0.1/", Fields: Fields{Address: "a"}, Headers: map[string]protocols.Secret{"Host": "x"}}, "exporter's to set"},
		{Source{Type: TypeHTTPJSON, URL: "http://127.0.0.1/", Fields: Fields{Address: "a"}, Headers: map[string]protocols.Secret{"X a": "x"}}, "no header name"},
		{Source{Type: TypeHTTPJSON, URL: "http://127.0.0.1/", Fields: Fields{Address: "a"}, Headers: map[string]protocols.Secret{"X": "a\r\nb"}}, "control character"},
		{Source{Type: TypeQuake3, Headers: map[string]protocols.Secret{"X": "a"}}, "for HTTP lists"},
		{Source{Type: TypeHTTPJSON, URL: "http://u:S3CRET@127.0.0.1/", Fields: Fields{Address: "a"}}, "credentials do not belong"},
		{Source{Type: TypePterodactyl, URL: "http://127.0.0.1/"}, "needs key_file"},
		{Source{Type: TypePterodactyl, KeyFile: good}, "needs a url"},
		{Source{Type: TypePterodactyl, URL: "http://127.0.0.1/?x=1", KeyFile: good}, "without query"},
		{Source{Type: TypePterodactyl, URL: "http://127.0.0.1/", KeyFile: empty}, "is empty"},
		{Source{Type: TypePterodactyl, URL: "http://127.0.0.1/", KeyFile: keyFile(t, "ptla_SECRET KEY")}, "cannot carry"},
		{Source{Type: TypePterodactyl, URL: "http://127.0.0.1/", KeyFile: good, Query: "x"}, "takes no query"},
		{Source{Type: TypePterodactyl, Address: "127.0.0.1:80", KeyFile: good}, "takes a url"},
		{Source{Type: TypeFile, Path: "x", KeyFile: good}, "key_file is for types"},
		{Source{Type: TypePterodactyl, URL: "http://127.0.0.1/", KeyFile: filepath.Join(t.TempDir(), "missing")}, "key_file"},
	})
}

// refusal is a source New refuses with an error that says want.
type refusal struct {
	s    Source
	want string
}

// refused wants New to refuse each source, saying why and quoting no secret.
func refused(t *testing.T, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		_, err := New(c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

// TestSteamWebAPI: with a key file, type steam asks the Web API's
// GetServerList with the filter, the key in a header (never in the URL or the
// trace), and reads its servers, bots apart.
func TestSteamWebAPI(t *testing.T) {
	key := keyFile(t, "SECRETKEY123")
	var gotFilter, gotLimit string
	srv, _ := prototest.HTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Webapi-Key") != "SECRETKEY123" || strings.Contains(r.URL.RawQuery, "SECRETKEY") {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		gotFilter, gotLimit = r.URL.Query().Get("filter"), r.URL.Query().Get("limit")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"response":{"servers":[
{"addr":"192.0.2.1:27015","gameport":27015,"steamid":"1","name":"2Fort 24/7","appid":440,"gamedir":"tf","version":"9876","product":"tf","region":255,"players":20,"max_players":24,"bots":4,"map":"ctf_2fort","secure":true,"dedicated":true,"os":"l"},
{"addr":"not an address","name":"skipped"},
{"addr":"192.0.2.2:27016","name":"empty","gamedir":"tf","players":0,"max_players":24,"bots":0,"map":"pl_badwater"},
{"addr":"192.0.2.3:27015","name":"over the cap"}
]}}`)
	}), false)
	got := listed(t, Source{Type: TypeSteam, URL: srv.URL + "/IGameServersService/GetServerList/v1/", KeyFile: key, Query: `\appid\440\gamedir\tf`, MaxEntries: 2}, "SECRETKEY")
	if gotFilter != `\appid\440\gamedir\tf` || gotLimit != "3" {
		t.Fatalf("filter %q limit %q", gotFilter, gotLimit)
	}
	if len(got.Entries) != 2 || !got.Capped || got.Skipped != 1 {
		t.Fatalf("%+v", got)
	}
	if e := got.Entries[0]; e.Name != "2Fort 24/7" || e.Map != "ctf_2fort" || e.Game != "tf" || e.Version != "9876" ||
		e.Players.Value != 16 || e.Max.Value != 24 || e.Addr.String() != "192.0.2.1:27015" {
		t.Fatalf("%+v", e)
	}
	// A wrong key is the server refusing it.
	l, _ := New(Source{Type: TypeSteam, URL: srv.URL, KeyFile: keyFile(t, "WRONG")})
	if _, err := l.List(prototest.Context(t, 2*time.Second), nil); !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "authentication") {
		t.Fatalf("wrong key: %v", err)
	}
	refused(t, []refusal{
		{Source{Type: TypeSteam, KeyFile: key, Address: "127.0.0.1:27011"}, "set url, not address"},
		{Source{Type: TypeSteam, KeyFile: key, Region: "europe"}, "region is for Valve's master"},
		{Source{Type: TypeQuake3, KeyFile: key}, "key_file is for types"},
		{Source{Type: TypeSteam, KeyFile: filepath.Join(t.TempDir(), "missing")}, "key_file: open"},
	})
}

// listHidden lists src within d, failing the test when secret shows in the
// error, in how the lister prints or in the trace.
func listHidden(t *testing.T, src Source, secret string, d time.Duration) (*List, error) {
	t.Helper()
	l, tr := lister(t, src), wire.NewTrace()
	got, err := l.List(prototest.Context(t, d), tr)
	if s := fmt.Sprintf("%v %v %+v %#v", err, l, l, l) + prototest.Transcript(tr); strings.Contains(s, secret) {
		t.Fatalf("the secret shows: %s", s)
	}
	return got, err
}

// listed is listHidden within 2s, wanting no error.
func listed(t *testing.T, src Source, secret string) *List {
	t.Helper()
	got, err := listHidden(t, src, secret, 2*time.Second)
	prototest.NoError(t, err)
	return got
}
