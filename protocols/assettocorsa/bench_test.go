package assettocorsa

import (
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecode(b *testing.B) {
	list := prototest.File(b, "entry_list.json")
	prototest.DecodeBench(b, prototest.File(b, "info.json"), func(info []byte) error {
		in, err := decodeInfo(info)
		cars, err2 := decodeCars(list)
		if err != nil || err2 != nil {
			return errors.Join(err, err2)
		}
		in.result()
		players(cars)
		return nil
	})
}
