/**
 * OCR on Linux, in the server process: tesseract.js (WebAssembly in worker threads, from the package
 * macpilot-linux-ocr) with the English model of model.ts. Never the network but for that model's one fetch:
 * langPath is always given (without it the worker downloads a model, and offline that error kills the process) and
 * nothing is cached (cacheMethod 'none'; else the model is written into the working folder).
 *
 * Two workers, started on first use and kept warm until close(), share each image: its top and bottom halves (cut
 * through blank rows), then, cut out, grey-scaled, inverted and doubled, the areas where light text sits on a
 * dark background and the halves read nothing there or read it unsure (a whole-image reading misses such text),
 * and the words read unsure. The words are merged, their boxes fitted to their ink, and grouped into lines
 * (lines.ts, pixels.ts, dark-areas.ts).
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type Tesseract from 'tesseract.js';
import { MacpilotError } from '../../../errors.js';
import { ClientErrorCode, HelperError, type CallOptions } from '../../../helper-client/errors.js';
import type { Bounds, RecognizedLine, RecognizedWord } from '../../../helper-client/protocol.js';
import { loadSharp } from '../../../sharp.js';
import { darkTextAreas, type GreyImage } from './dark-areas.js';
import { fetchModel, loadEngine, modelFile, ocrModel, type OcrModel, wholeModel } from './model.js';
import { contentBox, doubtfulWordAreas, splitBands, tighten, typicalValue } from './pixels.js';
import { groupWords, inside, mergeRereads, type Reread, unsure } from './lines.js';

/** Areas read again per image, largest first: each costs 10-60 ms. */
const MAX_REREADS = 12;
/** A background darker than this (0-255) is inverted before reading: tesseract reads dark text on light. */
const DARK = 128;
/** Areas read again are enlarged this many times: tesseract reads small UI type better larger. */
const REREAD_SCALE = 2;

const SPARSE_TEXT = '11' as Tesseract.PSM;
/** What a second reading cuts out is one row of text: 3-4 times faster read as one line than as sparse text. */
const SINGLE_LINE = '7' as Tesseract.PSM;

/**
 * Sparse text (page segmentation mode 11): a UI is labels scattered over the screen, not a page of paragraphs;
 * the automatic mode takes a row of tabs for a picture and misplaces words next to a column. Screens are about
 * 96 dpi; saying so spares tesseract its estimate (and the warning it prints on stderr).
 */
const PARAMETERS = {
  tessedit_pageseg_mode: SPARSE_TEXT,
  user_defined_dpi: '96',
  // Tesseract would read every unsure line again inverted; the dark areas are read again inverted here instead.
  tessedit_do_invert: '0',
};

/** One area to read: cut out of the image, inverted or not, enlarged `scale` times. */
interface AreaTask {
  area: Bounds;
  invert: boolean;
  scale: number;
}

const WORKERS = 2;

/** Stops a read between its phases once its call is cancelled (a worker's job itself cannot be stopped). */
function checkpoint(call: CallOptions | undefined): void {
  if (call?.signal?.aborted)
    throw new HelperError('', ClientErrorCode.Cancelled, 'the request was cancelled');
}

export class TesseractRecognizer {
  private workers: Promise<Tesseract.Worker[]> | undefined;
  /** The images read one after the other: each switches the workers' page segmentation between its phases. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly model: OcrModel = ocrModel()) {}

  /** The text in a PNG: lines of words with their boxes in the image's pixels. One image at a time. */
  recognize(png: Buffer, call?: CallOptions): Promise<RecognizedLine[]> {
    const turn = this.queue.then(async () => {
      // A call cancelled while it waited for its turn does not hold up the ones behind it for seconds.
      checkpoint(call);
      const workers = await this.ready(call?.signal);
      try {
        return await this.readImage(workers, png, call);
      } catch (error) {
        // A worker that failed may be dead: the next call starts fresh ones. A cancelled read left them well.
        if (!call?.signal?.aborted) await this.close();
        throw error;
      }
    });
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async readImage(
    workers: readonly Tesseract.Worker[],
    png: Buffer,
    call: CallOptions | undefined,
  ): Promise<RecognizedLine[]> {
    const sharp = await loadSharp();
    const grey = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const image: GreyImage = { width: grey.info.width, height: grey.info.height, data: grey.data };
    // Every area is cut out first, then handed to the workers in turn (each reads its queue in order).
    const spread = async (tasks: readonly AreaTask[]) => {
      const crops = await Promise.all(tasks.map((task) => crop(image, task)));
      return crops.map((png, i) =>
        this.readArea(workers[i % workers.length] as Tesseract.Worker, png, tasks[i] as AreaTask),
      );
    };
    // The image in two bands (without their flat margins), one per worker; then, cut out, the dark areas whose
    // text the bands missed or read unsure and the words read with little confidence (inverted where their
    // background is dark), each read as one line.
    const bands = splitBands(image).flatMap((band) => contentBox(image, band) ?? []);
    const reading = await spread(bands.map((area) => ({ area, invert: false, scale: 1 })));
    // Found while the workers read the bands (once the jobs are posted to them: a turn of the event loop).
    await nextTurn();
    const darkAreas = darkTextAreas(image);
    const first = (await Promise.all(reading)).flatMap((read) => read.words);
    checkpoint(call); // the second readings are as long again
    // Dark areas are light text on dark: inverted. A word's area is inverted where its background is dark, and
    // left out when its middle is in an area already taken (read with it).
    const dark = darkAreas
      .filter((area) => unsure(area, first))
      .map((area) => ({ area, invert: true, scale: REREAD_SCALE }));
    const words = doubtfulWordAreas(first, image)
      .filter(
        (area, i, all) => ![...dark.map((d) => d.area), ...all.slice(0, i)].some((a) => inside(area, a)),
      )
      .map((area) => ({ area, invert: typicalValue(image, area) < DARK, scale: REREAD_SCALE }));
    const doubtful = [...dark, ...words].slice(0, MAX_REREADS);
    const mode = (pageseg: Tesseract.PSM) =>
      Promise.all(workers.map((worker) => worker.setParameters({ tessedit_pageseg_mode: pageseg })));
    let rereads: Reread[] = [];
    if (doubtful.length > 0) {
      await mode(SINGLE_LINE);
      rereads = await Promise.all(await spread(doubtful)).finally(() => mode(SPARSE_TEXT));
    }
    const merged = mergeRereads(first, rereads);
    return groupWords(merged.map((word) => ({ ...word, bounds: tighten(word.bounds, image) })));
  }

  /** Stops the workers; the next recognize starts them again. */
  async close(): Promise<void> {
    const starting = this.workers;
    this.workers = undefined;
    const workers = (await starting?.catch(() => undefined)) ?? [];
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  /** The workers, started when none are; `signal` cancels their start, which waits for the model's fetch. */
  private ready(signal: AbortSignal | undefined): Promise<Tesseract.Worker[]> {
    if (!this.workers) {
      const starting = this.start(signal);
      this.workers = starting;
      starting.catch(() => {
        if (this.workers === starting) this.workers = undefined;
      });
    }
    return this.workers;
  }

  private async start(signal: AbortSignal | undefined): Promise<Tesseract.Worker[]> {
    const file = modelFile(this.model);
    await fetchModel(this.model, signal);
    if (this.model.source === 'npm' && existsSync(file) && !(await wholeModel(file, true))) {
      // A fetched model damaged since (a full disk, say) is fetched again.
      await rm(file, { force: true });
      await fetchModel(this.model, signal);
    }
    if (!existsSync(file)) {
      throw new MacpilotError({
        what: 'OCR is unavailable',
        why: `its English model ${file} is missing`,
        next: 'install the Debian package tesseract-ocr-eng (sudo apt-get install tesseract-ocr-eng)',
        kind: 'ocr_model_missing',
      });
    }
    if (!(await wholeModel(file, this.model.gzip))) {
      throw new MacpilotError({
        what: 'OCR is unavailable',
        why: `its English model ${file} is damaged (its table of contents is cut short or points outside the file)`,
        next:
          this.model.source === 'debian'
            ? 'reinstall the Debian package tesseract-ocr-eng (sudo apt-get install --reinstall tesseract-ocr-eng)'
            : `delete ${file}: the next read fetches it again`,
        kind: 'ocr_model_damaged',
      });
    }
    const { createWorker, workerPath } = await loadEngine();
    const options = { langPath: this.model.langPath, gzip: this.model.gzip, cacheMethod: 'none', workerPath };
    const starting = await Promise.allSettled(
      Array.from({ length: WORKERS }, async () => {
        const worker = await startWorker(createWorker, options);
        try {
          await worker.setParameters(PARAMETERS);
        } catch (error) {
          await worker.terminate().catch(() => {});
          throw error;
        }
        return worker;
      }),
    );
    const workers = starting.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = starting.find((result) => result.status === 'rejected');
    if (!failed) return workers;
    // One worker that started is of no use without the other: stopped, not left running.
    await Promise.all(workers.map((worker) => worker.terminate().catch(() => {})));
    throw new MacpilotError(
      {
        what: 'OCR is unavailable',
        why: `tesseract.js did not start with the English model in ${this.model.langPath}: ${String(failed.reason)}`,
        next: 'retry; if it keeps failing, run macpilot doctor and reinstall the model it names',
        kind: 'ocr_engine_did_not_start',
      },
      { cause: failed.reason },
    );
  }

  private async read(worker: Tesseract.Worker, png: Buffer): Promise<RecognizedWord[]> {
    const { data } = await worker.recognize(png, {}, { blocks: true, text: false });
    const words = (data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((paragraph) => paragraph.lines.flatMap((line) => line.words)),
    );
    return words
      .filter((word) => word.text.trim() !== '')
      .map((word) => ({
        text: word.text.trim(),
        bounds: {
          x: word.bbox.x0,
          y: word.bbox.y0,
          width: word.bbox.x1 - word.bbox.x0,
          height: word.bbox.y1 - word.bbox.y0,
        },
        confidence: Math.max(0, Math.min(1, word.confidence / 100)),
      }));
  }

  /** One area's PNG read, its words back in the image's pixels. */
  private async readArea(worker: Tesseract.Worker, png: Buffer, task: AreaTask): Promise<Reread> {
    const { area, scale } = task;
    const words = await this.read(worker, png);
    return {
      area,
      words: words.map((word) => ({
        ...word,
        bounds: {
          x: area.x + word.bounds.x / scale,
          y: area.y + word.bounds.y / scale,
          width: word.bounds.width / scale,
          height: word.bounds.height / scale,
        },
      })),
    };
  }
}

/**
 * One tesseract.js worker, started. Without an errorHandler, tesseract.js throws a job's failure inside its
 * message listener (an image it cannot read, say): an uncaught exception that ends the server. With one, the job
 * is rejected and the server goes on; but a failure while loading then never settles createWorker, so the first
 * failure reported is raced against it.
 */
export async function startWorker(
  createWorker: typeof Tesseract.createWorker,
  options: Partial<Tesseract.WorkerOptions>,
): Promise<Tesseract.Worker> {
  let fail: (error: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const creating = createWorker('eng', 1, { ...options, errorHandler: (error: unknown) => fail(error) });
  try {
    return await Promise.race([creating, failure]);
  } catch (error) {
    // Should it still start, it is stopped.
    creating
      .then(
        (worker) => worker.terminate(),
        () => {},
      )
      .catch(() => {});
    throw error;
  }
}

/** One area cut out of the greyscale image, inverted and enlarged as the task says, as a PNG. */
async function crop(image: GreyImage, task: AreaTask): Promise<Buffer> {
  const { area, invert, scale } = task;
  const sharp = await loadSharp();
  let cut = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } }).extract({
    left: area.x,
    top: area.y,
    width: area.width,
    height: area.height,
  });
  if (invert) cut = cut.negate();
  if (scale !== 1) cut = cut.resize({ width: area.width * scale, kernel: 'cubic' });
  return cut.png({ compressionLevel: 0 }).toBuffer();
}
