package master

import (
	"fmt"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// RedactURL returns a list's URL as pages, errors and logs may show it: every
// query value and any userinfo is a secret (a key in a URL is common), shown
// as <secret>.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "<a URL that does not parse>"
	}
	secret := u.User != nil
	u.User = nil
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			if k, v, ok := strings.Cut(p, "="); !ok {
				parts[i] = "<secret>" // a bare key=less value (?APIKEY)
			} else if v != "" {
				parts[i] = k + "=<secret>"
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	u.Fragment, u.RawFragment = "", ""
	out := u.String()
	if secret {
		out = strings.Replace(out, "//", "//<secret>@", 1)
	}
	return out
}

// redacted is an error with secrets cut out of its text; it unwraps to the
// original (its sentinel).
type redacted struct {
	err error
	cut []string
}

func (r *redacted) Error() string {
	s := r.err.Error()
	for _, c := range r.cut {
		if c != "" {
			s = strings.ReplaceAll(s, c, "<secret>")
		}
	}
	return s
}

func (r *redacted) Unwrap() error { return r.err }

// loadHeaders reads the source's request headers (Headers, HeaderFiles) into
// s.header: a list that wants a key gets it in a header, and its URL carries
// none.
func (s *Source) loadHeaders() error {
	if len(s.Headers)+len(s.HeaderFiles) == 0 {
		return nil
	}
	switch s.Type {
	case TypeHTTPJSON, TypeDDNet, TypeGeneshift:
	default:
		return fmt.Errorf("headers and header_files are for HTTP lists (%s, %s, %s)", TypeDDNet, TypeGeneshift, TypeHTTPJSON)
	}
	s.header = map[string]protocols.Secret{}
	add := func(name string, v protocols.Secret, file string) error {
		canon := textproto.CanonicalMIMEHeaderKey(name)
		if !headerName(name) {
			return fmt.Errorf("headers: %q is no header name", name)
		}
		switch canon {
		case "Host", "Content-Length", "Transfer-Encoding", "Connection", "Accept", "X-Webapi-Key":
			return fmt.Errorf("headers: %s is the exporter's to set", canon)
		}
		if _, dup := s.header[canon]; dup {
			return fmt.Errorf("headers: %s is set twice", canon)
		}
		for _, c := range []byte(v) {
			if c < ' ' && c != '\t' || c == 0x7f {
				return fmt.Errorf("headers: the value of %s%s holds a control character", canon, file)
			}
		}
		s.header[canon] = v
		return nil
	}
	for name, v := range s.Headers {
		if err := add(name, v, ""); err != nil {
			return err
		}
	}
	for name, path := range s.HeaderFiles {
		v, err := protocols.LoadSecret("", path)
		if err != nil {
			return fmt.Errorf("header_files: %s: %v", name, err)
		}
		if err := add(name, v, " (in "+path+")"); err != nil {
			return err
		}
	}
	return nil
}

// headerName says whether s is an HTTP header name (RFC 9110's token).
func headerName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		if !(isLetter(c) || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}
