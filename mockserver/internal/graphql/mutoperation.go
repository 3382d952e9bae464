package graphql

import "github.com/catalogkit/datahub-go/mockserver/internal/gms"

func init() {
	mutation("reportOperation", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN, OperationType, SourceType string
				CustomOperationType, Partition *string
				NumAffectedRows                *int64
				TimestampMillis                *int64
				CustomProperties               []struct{ Key, Value string }
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		r := gms.OperationReport{URN: i.URN, OperationType: i.OperationType, SourceType: i.SourceType,
			CustomOperationType: i.CustomOperationType, Partition: i.Partition, NumAffectedRows: i.NumAffectedRows,
			TimestampMillis: i.TimestampMillis}
		if i.CustomProperties != nil {
			r.CustomProperties = [][2]string{}
			for _, kv := range i.CustomProperties {
				r.CustomProperties = append(r.CustomProperties, [2]string{kv.Key, kv.Value})
			}
		}
		if err := c.Core().ReportOperation(c, r); err != nil {
			return nil, fromCore(err)
		}
		// DataHub's resolver returns true, which the String field prints.
		return "true", nil
	})
}
