package dev.gantry.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Date;
import org.junit.jupiter.api.Test;

/**
 * The core is a pure domain: JDK only, no AWS, Lambda, fabric8 or YAML types, no dependency on the shell modules,
 * and no reading of the wall clock (time is passed in as a {@link Clock} or an {@link Instant}).
 */
class ArchitectureTest {

    /*
     * Main classes only. ArchUnit's own DO_NOT_INCLUDE_TESTS looks for "/target/test-classes/", which misses the
     * per-engineer build directories (target-<name>/test-classes), so the test output is excluded by name here.
     */
    private static final ImportOption MAIN_CLASSES_ONLY = location -> !location.contains("/test-classes/");
    private static final JavaClasses CORE = new ClassFileImporter().withImportOption(MAIN_CLASSES_ONLY).importPackages("dev.gantry.core");

    static final ArchRule NO_CLOUD_OR_YAML_TYPES = noClasses().that().resideInAPackage("dev.gantry.core..")
            .should().dependOnClassesThat().resideInAnyPackage("software.amazon..", "com.amazonaws..", "io.fabric8..",
                    "com.fasterxml..", "org.snakeyaml..", "org.yaml..", "org.crac..")
            .because("the core is a pure domain; adapters live in the aws, kube and config modules")
            .allowEmptyShould(false);

    static final ArchRule NO_SHELL_MODULES = noClasses().that().resideInAPackage("dev.gantry.core..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.config..", "dev.gantry.cli..", "dev.gantry.aws..",
                    "dev.gantry.kube..", "dev.gantry.handlers..", "dev.gantry.infra..", "dev.gantry.testing..")
            .because("the shell depends on the core, never the other way round")
            .allowEmptyShould(false);

    static final ArchRule JDK_ONLY = classes().that().resideInAPackage("dev.gantry.core..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.gantry.core..")
            .because("functions/core depends on the JDK alone")
            .allowEmptyShould(false);

    static final ArchRule NO_WALL_CLOCK = noClasses().that().resideInAPackage("dev.gantry.core..")
            .should().callMethod(Instant.class, "now")
            .orShould().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(Clock.class, "systemUTC")
            .orShould().callMethod(Clock.class, "systemDefaultZone")
            .orShould().callMethod(LocalDateTime.class, "now")
            .orShould().callMethod(LocalDate.class, "now")
            .orShould().callMethod(ZonedDateTime.class, "now")
            .orShould().callMethod(OffsetDateTime.class, "now")
            .orShould().callConstructor(Date.class)
            .because("decisions must be reproducible: inject a Clock or pass Instant now")
            .allowEmptyShould(false);

    @Test
    void importsTheWholeCoreAndNothingFromTheTests() {
        assertThat(CORE.size()).isGreaterThan(40);
        assertThat(CORE.stream().map(JavaClass::getPackageName).distinct())
                .contains("dev.gantry.core.model", "dev.gantry.core.requirements", "dev.gantry.core.scheduling", "dev.gantry.core.catalog");
        assertThat(CORE.contain(ArchitectureTest.class)).isFalse();
        assertThat(CORE.contain(dev.gantry.core.requirements.ValueSet.class)).isTrue();
    }

    @Test
    void coreDoesNotDependOnAwsFabric8OrYaml() {
        NO_CLOUD_OR_YAML_TYPES.check(CORE);
    }

    @Test
    void coreDoesNotDependOnTheShellModules() {
        NO_SHELL_MODULES.check(CORE);
    }

    @Test
    void coreDependsOnTheJdkAlone() {
        JDK_ONLY.check(CORE);
    }

    @Test
    void coreDoesNotReadTheWallClock() {
        NO_WALL_CLOCK.check(CORE);
    }

    @Test
    void theRulesCatchAnOffender() {
        // The offenders live in this test class's package, so they fall under the rules' "dev.gantry.core.." clause.
        JavaClasses offenders = new ClassFileImporter().importClasses(ReadsTheClock.class, UsesALibrary.class);
        assertThat(NO_WALL_CLOCK.evaluate(offenders).hasViolation()).isTrue();
        assertThat(JDK_ONLY.evaluate(offenders).hasViolation()).isTrue();
        assertThat(NO_WALL_CLOCK.evaluate(new ClassFileImporter().importClasses(UsesAnInjectedClock.class)).hasViolation()).isFalse();
    }

    static final class ReadsTheClock {
        long ageMillis(Instant created) {
            return System.currentTimeMillis() - created.toEpochMilli() + Instant.now().getNano() * 0;
        }
    }

    static final class UsesALibrary {
        Object assertion() {
            return org.assertj.core.api.Assertions.assertThat(1);
        }
    }

    static final class UsesAnInjectedClock {
        Instant now(Clock clock) {
            return Instant.now(clock);
        }
    }
}
