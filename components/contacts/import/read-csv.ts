import Papa from "papaparse";

export type CsvPreview = {
  headers: string[];
  /** The first data rows, for the preview table and the column samples. */
  rows: string[][];
  /** Data rows in the file, the header not counted. */
  rowCount: number;
  delimiter: string;
};

const PREVIEW_ROWS = 10;
// Small chunks keep the progress bar moving; the worker keeps the page responsive meanwhile.
const CHUNK_BYTES = 512 * 1024;

/**
 * Reads a CSV file in a Web Worker, chunk by chunk, keeping only the header, the first rows and a
 * row count, so a file of any size leaves the page responsive and memory flat. `onProgress`
 * gets 0..1.
 */
export function readCsv(file: File, onProgress: (share: number) => void): Promise<CsvPreview> {
  return new Promise((resolve, reject) => {
    let headers: string[] | null = null;
    const rows: string[][] = [];
    let rowCount = 0;
    let delimiter = ",";
    Papa.parse<string[]>(file, {
      worker: true,
      chunkSize: CHUNK_BYTES,
      skipEmptyLines: "greedy",
      chunk: (results) => {
        let data = results.data;
        if (!headers) {
          headers = (data[0] ?? []).map((cell) => cell.replace(/^\uFEFF/, "").trim());
          delimiter = results.meta.delimiter;
          data = data.slice(1);
        }
        for (const row of data) {
          if (rows.length < PREVIEW_ROWS) rows.push(row);
        }
        rowCount += data.length;
        onProgress(file.size ? Math.min(1, results.meta.cursor / file.size) : 1);
      },
      complete: () => {
        onProgress(1);
        if (!headers || headers.length === 0 || headers.every((h) => h === ""))
          reject(new Error("The file has no header row. The first line must name the columns."));
        else resolve({ headers, rows, rowCount, delimiter });
      },
      error: (error) => reject(new Error(`Could not read the file: ${error.message}`)),
    });
  });
}
