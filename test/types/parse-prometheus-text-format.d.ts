// The package ships no types; this is the prom2json-shaped output its README documents.
declare module 'parse-prometheus-text-format' {
  export type Sample = {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  };
  export type MetricFamily = { name: string; help: string; type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'; metrics: Sample[] };
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
