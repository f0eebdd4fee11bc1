package dev.ingestbench.cli;

import dev.ingestbench.contracts.job.RowEncoding;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import dev.ingestbench.contracts.job.WriteMethod;
import dev.ingestbench.harness.spec.SettingFlag;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * picocli converters for a job's typed settings ({@code round}, {@code plan}): each value parsed by
 * its type's own parser, so a flag's spellings and its refusal are written once, with the type. The
 * refusal is the one without a flag's name ("'x' is not known; use ..."): picocli puts the option
 * the user typed before it, where the consumer's own spelling ({@code --writeMethod=x}) would name
 * a flag the user did not give.
 */
final class JobSettingConverters {
  private JobSettingConverters() {}

  /** Any spelling {@link WriteMethod#fromYaml} accepts (the same as the consumer's flag). */
  static final class WriteMethods implements CommandLine.ITypeConverter<WriteMethod> {
    @Override
    public WriteMethod convert(String value) {
      return converted(() -> WriteMethod.fromYaml(value));
    }
  }

  static final class RowFormats implements CommandLine.ITypeConverter<RowFormat> {
    @Override
    public RowFormat convert(String value) {
      return converted(() -> RowFormat.fromYaml(value));
    }
  }

  static final class TableCreations implements CommandLine.ITypeConverter<TableCreation> {
    @Override
    public TableCreation convert(String value) {
      return converted(() -> TableCreation.fromFlag(SettingFlag.Round.CREATE_TABLES, value));
    }
  }

  static final class TableSkews implements CommandLine.ITypeConverter<TableSkew> {
    @Override
    public TableSkew convert(String value) {
      return converted(() -> TableSkew.parse(SettingFlag.Round.TABLE_SKEW, value));
    }
  }

  static final class RowEncodings implements CommandLine.ITypeConverter<RowEncoding> {
    @Override
    public RowEncoding convert(String value) {
      return converted(() -> RowEncoding.fromYaml(value));
    }
  }

  /**
   * A value parsed by its type's own parser, its refusal given to picocli as a conversion error:
   * the user sees the refusal's words (which name the flag and the fix), not an exception's.
   */
  static <T> T converted(Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
