package hawakening

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

type expected struct {
	prototest.Expected
	Vector   string `json:"vector"`
	GUID     string `json:"guid"`
	Grant    string `json:"grant"`
	Contains string `json:"contains"`
}

const user = "pilot@example.com"

// decodeListing runs a listing body through what the querier does after the
// HTTP exchange.
func decodeListing(body []byte, guid string) (*protocols.Result, error) {
	env, err := parseEnvelope(body)
	if err != nil {
		return nil, err
	}
	l, err := listingsOf(env, 200)
	if err != nil {
		return nil, err
	}
	return l.result(guid)
}

func decodeSignIn(body []byte) (string, error) {
	env, err := parseEnvelope(body)
	if err != nil {
		return "", err
	}
	return grantOf(env, 200, user, "hunter2")
}

// TestVectors decodes every answer in testdata/.
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[expected](t, filepath.Join("testdata", name+".expected.json"))
			vector := name
			if e.Vector != "" {
				vector = e.Vector
			}
			body := prototest.File(t, vector+".json")
			var err error
			if strings.HasPrefix(name, "signin_") {
				var g string
				g, err = decodeSignIn(body)
				prototest.CheckError(t, err, e.Error, nil)
				if err == nil && g != e.Grant {
					t.Errorf("grant %q, want %q", g, e.Grant)
				}
			} else {
				var res *protocols.Result
				res, err = decodeListing(body, e.GUID)
				prototest.CheckExpected(t, e.Expected, res, err)
			}
			if err != nil && !strings.Contains(err.Error(), e.Contains) {
				t.Errorf("error %q, want it to say %q", err, e.Contains)
			}
			if err != nil && e.Error == "" {
				t.Fatal(err)
			}
		})
	}
}

// The password never appears in an error, even if the backend echoed it.
func TestMessageMasksPassword(t *testing.T) {
	body := []byte(`{"Status": 500, "Message": "cannot check password hunter2 now"}`)
	env, err := parseEnvelope(body)
	prototest.NoError(t, err)
	_, err = grantOf(env, 500, user, "hunter2")
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), `"cannot check password <secret> now"`) {
		t.Errorf("err = %v", err)
	}
}

// FuzzDecode checks that no answer panics the decoders, that a grant taken
// is a header value, and that every server mapped gives a valid UTF-8 result
// with counts in range.
func FuzzDecode(f *testing.F) {
	prototest.SeedFiles(f, "*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := parseEnvelope(b)
		if err != nil {
			return
		}
		if g, err := grantOf(env, 200, user, "pw"); err == nil && (g == "" || len(g) > maxGrantLen || strings.ContainsAny(g, "\r\n")) {
			t.Fatalf("grant %q", g)
		}
		l, err := listingsOf(env, 200)
		if err != nil {
			return
		}
		for i := range l {
			res, err := l[i].result()
			if err != nil {
				continue
			}
			prototest.CheckUTF8(t, res)
			if res.Players.Value < 0 || res.Players.Value > maxUsers || res.MaxPlayers.Value < 0 || res.MaxPlayers.Value > maxUsers || res.Bots.Known {
				t.Fatalf("players %+v, max %+v", res.Players, res.MaxPlayers)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.File(b, "listings_basic.json"), func(data []byte) error {
		_, err := decodeListing(data, guid)
		return err
	})
}
