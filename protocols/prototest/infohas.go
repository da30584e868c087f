package prototest

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// InfoOf is the result's info, deferred too, as a map (KVMap).
func InfoOf(res *protocols.Result) map[string]string { return KVMap(res.InfoKV()) }

// KVMap is a key/value list (info, rules) as a map: the last value of a key
// repeated.
func KVMap(kvs []protocols.KV) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// CheckInfoHas asserts that the result's info holds each key of want with its
// value (other keys may be there too).
func CheckInfoHas(t testing.TB, res *protocols.Result, want map[string]string) {
	t.Helper()
	info := InfoOf(res)
	for k, v := range want {
		if got, ok := info[k]; !ok || got != v {
			t.Errorf("info %s = %q (%v), want %q", k, got, ok, v)
		}
	}
}
