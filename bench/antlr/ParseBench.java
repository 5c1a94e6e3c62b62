// Times the reference ANTLR 4 parser (EasyFlow.g4) on one file: in-process,
// warm (WARMUP untimed parses first), and reports the best and the median of
// RUNS timed parses, and the syntax errors of the last. A parse is what the
// generated parser does by default: lexing, the token stream, and the parse
// tree of `program`.
//
//   java -cp antlr4-runtime.jar:build ParseBench FILE [RUNS] [WARMUP]

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;

import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;

public class ParseBench {
    static int errors;

    static class Counting extends BaseErrorListener {
        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object symbol, int line,
                int column, String message, RecognitionException e) {
            if (errors++ < 5) {
                System.err.println("line " + line + ":" + column + " " + message);
            }
        }
    }

    static long parseOnce(String text) {
        long start = System.nanoTime();
        CharStream chars = CharStreams.fromString(text);
        EasyFlowLexer lexer = new EasyFlowLexer(chars);
        lexer.removeErrorListeners();
        lexer.addErrorListener(new Counting());
        EasyFlowParser parser = new EasyFlowParser(new CommonTokenStream(lexer));
        parser.removeErrorListeners();
        parser.addErrorListener(new Counting());
        parser.program();
        return System.nanoTime() - start;
    }

    public static void main(String[] args) throws Exception {
        String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        for (int i = 0; i < warmup; i++) {
            parseOnce(text);
        }
        long[] times = new long[runs];
        for (int i = 0; i < runs; i++) {
            errors = 0;
            times[i] = parseOnce(text);
            System.gc();
        }
        Arrays.sort(times);
        System.out.printf("antlr4 parse of %s (%d bytes): best %.1f ms, median %.1f ms, worst %.1f ms of %d (after %d warm-up), %d syntax errors%n",
                args[0], text.getBytes(StandardCharsets.UTF_8).length, times[0] / 1e6,
                times[runs / 2] / 1e6, times[runs - 1] / 1e6, runs, warmup, errors);
    }
}
