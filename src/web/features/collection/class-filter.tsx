import { useQuery } from '@tanstack/react-query';
import { FormField, Select } from '@web/components/ui';
import { ratesQuery } from './api';

/** "Class" in a back-office filter form: every card class, or all of them (the empty value). */
export function ClassFilter({ value, onChange }: { value: string; onChange: (classId: string) => void }) {
  const rates = useQuery(ratesQuery);
  return (
    <FormField label="Class">
      <Select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All classes</option>
        {rates.data?.classes.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Select>
    </FormField>
  );
}
