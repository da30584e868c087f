package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
)

// secretKeys are option keys whose values are credentials: /config and debug output
// print them as <secret>. Their *_file forms name a path and stay visible.
var secretKeys = []string{"password", "token", "secret", "client_secret", "api_key", "code"}

func isSecretKey(k string) bool {
	for _, s := range secretKeys {
		if k == s || strings.HasSuffix(k, "_"+s) {
			return true
		}
	}
	return false
}

// noAliases refuses YAML anchors, aliases and merge keys in a modules file.
// The credential checks (a module with a secret lists its targets) and the
// redaction of /config read the protocol blocks as YAML nodes, where
// `password: *pw` is an alias, not a secret's value: refused, it can neither
// slip past the check nor show under another key.
func noAliases(file string, n *yaml.Node) error {
	if n.Anchor != "" || n.Kind == yaml.AliasNode || n.Tag == "!!merge" {
		return fmt.Errorf("%s:%d:%d: YAML anchors, aliases and merge keys (&, *, <<) are not supported in a modules file: write the value out",
			file, n.Line, n.Column)
	}
	for _, c := range n.Content {
		if err := noAliases(file, c); err != nil {
			return err
		}
	}
	return nil
}

// redacted returns m with credential values in its protocol block replaced.
func redacted(m *Module) *Module {
	if len(m.Options) == 0 {
		return m
	}
	c := *m
	c.Options = make(map[string]yaml.Node, len(m.Options))
	for k, n := range m.Options {
		c.Options[k] = redactNode(n)
	}
	return &c
}

func redactNode(n yaml.Node) yaml.Node {
	out := n
	if len(n.Content) == 0 {
		return out
	}
	out.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		cc := redactNode(*c)
		if n.Kind == yaml.MappingNode && i%2 == 1 && isSecretKey(n.Content[i-1].Value) && c.Kind == yaml.ScalarNode {
			cc = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "<secret>"}
		}
		out.Content[i] = &cc
	}
	return out
}

// redactedDiscovery returns the discovery section as pages show it: a source
// URL's query values and userinfo are secrets (master.RedactURL); header
// values print as <secret> by themselves.
func redactedDiscovery(d Discovery) Discovery {
	if len(d) == 0 {
		return d
	}
	out := make(Discovery, len(d))
	for name, s := range d {
		c := *s
		if c.URL != "" {
			c.URL = master.RedactURL(c.URL)
		}
		out[name] = &c
	}
	return out
}
